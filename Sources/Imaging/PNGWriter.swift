import CPNG
import Pixels

/// PNG with text chunks, through libpng's simplified API (which reports errors instead of jumping
/// out of the caller). Cairo's encoder cannot write text, and the thumbnail standard needs it.
public enum PNGWriter {
    /// `image` as PNG bytes with a `tEXt` chunk for each of `text` (Latin-1 keys and values), or nil
    /// when libpng refuses.
    public static func encode(_ image: PixelImage, text: [(key: String, value: String)] = []) -> [UInt8]? {
        let (pixels, stride, format) = samples(of: image)
        var png = png_image()
        png.version = photozoom_png_image_version()
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = format
        // No row filters and light compression: a larger file that reads back faster. Thumbnails are
        // written once and read at every launch (Paeth unfiltering led the warm grid's profile).
        png.flags = photozoom_png_image_flag_fast()
        // Written once into room for the worst case (zlib's bound on the filter-byte rows, and the
        // chunks around them): asking libpng for the size first compresses the image twice.
        let raw = image.height * (stride + 1)
        var bytes = [UInt8](repeating: 0, count: raw + raw / 8 + raw / 64 + 4096)
        var size = png_alloc_size_t(bytes.count)
        var written = bytes.withUnsafeMutableBytes {
            png_image_write_to_memory(&png, $0.baseAddress, &size, 0, pixels, png_int_32(stride), nil)
        }
        if written == 0, Int(size) > bytes.count {
            // Larger than the bound after all: `size` is what it needs.
            png_image_free(&png)
            png.warning_or_error = 0
            bytes = [UInt8](repeating: 0, count: Int(size))
            written = bytes.withUnsafeMutableBytes {
                png_image_write_to_memory(&png, $0.baseAddress, &size, 0, pixels, png_int_32(stride), nil)
            }
        }
        png_image_free(&png)
        guard written != 0, Int(size) <= bytes.count, Int(size) >= PNGText.firstChunkOffset + 25 else { return nil }
        bytes.removeSubrange(Int(size)...)
        // Text goes right after IHDR (8 bytes of signature, then IHDR's 25).
        let at = PNGText.firstChunkOffset + 25
        bytes.insert(contentsOf: text.flatMap { PNGText.chunk(key: $0.key, value: $0.value) }, at: at)
        return bytes
    }

    /// The pixels as libpng takes them: packed BGR for an opaque image (a quarter less to store and
    /// to inflate again: the warm grid reads these), else BGRA with straight alpha (Cairo's are
    /// premultiplied).
    private static func samples(of image: PixelImage) -> (pixels: [UInt8], stride: Int, format: png_uint_32) {
        func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
            image.bytes.advanced(by: y * image.stride).assumingMemoryBound(to: UInt32.self)
        }
        let opaque = (0..<image.height).allSatisfy { y in (0..<image.width).allSatisfy { row(y)[$0] >> 24 == 0xFF } }
        let channels = opaque ? 3 : 4
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * channels)
        var i = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = opaque ? row(y)[x] : unpremultiplied(row(y)[x])
                pixels[i] = UInt8(p & 0xFF)
                pixels[i + 1] = UInt8(p >> 8 & 0xFF)
                pixels[i + 2] = UInt8(p >> 16 & 0xFF)
                if !opaque { pixels[i + 3] = UInt8(p >> 24) }
                i += channels
            }
        }
        return (pixels, image.width * channels, opaque ? photozoom_png_format_bgr() : photozoom_png_format_bgra())
    }

    private static func unpremultiplied(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        guard a != 0xFF else { return p }
        guard a != 0 else { return 0 }
        func channel(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xFF) * 255 + a / 2) / a) << shift }
        return a << 24 | channel(16) | channel(8) | channel(0)
    }
}

/// A PNG's `tEXt` chunks: reading them, and making one.
public enum PNGText {
    /// The PNG signature's length: the first chunk starts here.
    static let firstChunkOffset = 8

    /// The text chunks of `data`, keyword to text (Latin-1), read up to the image end; empty when
    /// it is not a PNG.
    public static func read(_ data: [UInt8]) -> [String: String] {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return [:] }
        var text: [String: String] = [:]
        var i = firstChunkOffset
        while i + 12 <= data.count {
            let length = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length >= 0, i + 12 + length <= data.count, type != "IEND" else { break }
            if type == "tEXt" {
                let body = data[(i + 8)..<(i + 8 + length)]
                if let zero = body.firstIndex(of: 0) {
                    text[latin1(body[..<zero])] = latin1(body[(zero + 1)...])
                }
            }
            i += 12 + length
        }
        return text
    }

    /// A `tEXt` chunk: a keyword, a zero byte, and the text.
    static func chunk(key: String, value: String) -> [UInt8] {
        chunk(type: "tEXt", data: Array(key.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) + [0]
            + Array(value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }))
    }

    /// A chunk: length, type, data, and the CRC of type and data.
    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
