/// An EXIF block as a camera writes one: IFD0 with the orientation, IFD1 with a JPEG thumbnail.
/// Written little-endian ("II"), entries in tag order, as the TIFF specification asks.
public struct ExifBlock: Sendable {
    public var orientation: ExifOrientation
    /// The thumbnail's JPEG bytes (IFD1); nil writes no IFD1.
    public var thumbnailJPEG: [UInt8]?

    public init(orientation: ExifOrientation = .up, thumbnailJPEG: [UInt8]? = nil) {
        self.orientation = orientation
        self.thumbnailJPEG = thumbnailJPEG
    }

    /// The whole APP1 segment (marker, length, "Exif\0\0", TIFF); nil when it exceeds a segment's 64 KiB.
    func app1Segment() -> [UInt8]? {
        let payload = Array("Exif\0\0".utf8) + tiff()
        let length = payload.count + 2
        guard length <= 0xFFFF else { return nil }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The TIFF structure: header, IFD0, IFD1, thumbnail.
    func tiff() -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ value: Int) {
            u16(tag); u16(type); u32(1)
            if type == 3 { u16(value); u16(0) } else { u32(value) }
        }
        let ifd0 = 8, ifd0Size = 2 + 12 + 4
        let ifd1 = ifd0 + ifd0Size, ifd1Size = 2 + 3 * 12 + 4
        u32(ifd0)
        u16(1)
        entry(0x0112, 3, orientation.rawValue)
        guard let thumbnail = thumbnailJPEG else { u32(0); return out }
        u32(ifd1)
        u16(3)
        entry(0x0103, 3, 6)                          // Compression: JPEG
        entry(0x0201, 4, ifd1 + ifd1Size)            // JPEGInterchangeFormat
        entry(0x0202, 4, thumbnail.count)            // JPEGInterchangeFormatLength
        u32(0)
        return out + thumbnail
    }
}
