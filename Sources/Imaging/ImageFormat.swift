/// The container formats the viewer decodes, told apart by their leading bytes, never by extension.
public enum ImageFormat: String, Sendable {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"

    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes[0..<4].elementsEqual(Array("RIFF".utf8)),
                  bytes[8..<12].elementsEqual(Array("WEBP".utf8)) {
            self = .webp
        } else {
            return nil
        }
    }
}
