import CCairo
import Pixels

/// PNG through Cairo's libpng loader, which expands every colour type and bit depth (palette,
/// greyscale, 16-bit, with or without alpha or tRNS) to ARGB32. The header is checked first so an
/// absurd claimed size is refused before anything is allocated.
enum PNGDecoder {
    static func decode(_ data: [UInt8]) throws(ImageDecodeError) -> PixelImage {
        let (width, height) = try headerSize(data)
        try ImageLimits.check(width: width, height: height)

        let reader = ByteReader(data)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, buffer, length in
                let reader = Unmanaged<ByteReader>.fromOpaque(closure!).takeUnretainedValue()
                return reader.read(into: buffer!, count: Int(length))
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            let detail = status == CAIRO_STATUS_READ_ERROR ? "the file is truncated or damaged"
                : String(cString: cairo_status_to_string(status))
            throw .corrupt(format: "PNG", detail: detail)
        }
        return PixelImage(copying: surface!)
    }

    /// Width and height from the IHDR chunk, which the PNG format puts first.
    static func headerSize(_ b: [UInt8]) throws(ImageDecodeError) -> (Int, Int) {
        guard b.count >= 24, b[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            throw .corrupt(format: "PNG", detail: "no IHDR header")
        }
        func u32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        return (u32(16), u32(20))
    }
}

/// Feeds an in-memory file to Cairo's stream reader.
private final class ByteReader {
    let data: [UInt8]
    var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard offset + count <= data.count else { return CAIRO_STATUS_READ_ERROR }
        data.withUnsafeBufferPointer { src in
            buffer.update(from: src.baseAddress! + offset, count: count)
        }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
