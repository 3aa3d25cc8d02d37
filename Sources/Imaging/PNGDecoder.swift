import CPNG
import Pixels

/// PNG through libpng, every colour type and bit depth (palette, greyscale, 16-bit, with or without
/// alpha or tRNS) expanded to ARGB32 as Cairo's loader expands them. The header is checked first so
/// an absurd claimed size is refused before anything is allocated. A file cut short (or damaged past
/// its header) shows the rows decoded before the damage, the rest grey, and says so. A panorama wider
/// than Cairo can hold is averaged down as it is read (an interlaced one is refused).
enum PNGDecoder {
    /// The picture, the file's own size, and what was wrong with a file that still gave one. A picture
    /// wider or taller than Cairo's 32767 px, within the pixel limit, comes reduced by a whole factor.
    static func decode(_ data: [UInt8]) throws(ImageDecodeError) -> (image: PixelImage, full: (width: Int, height: Int), problem: String?) {
        let (width, height) = try headerSize(data)
        try ImageLimits.checkPixels(width: width, height: height)
        let shrink = (max(width, height) + ImageLimits.maxSide - 1) / ImageLimits.maxSide
        let size = (width: (width + shrink - 1) / shrink, height: (height + shrink - 1) / shrink)

        // libpng writes B, G, R, A bytes: Cairo's words, once premultiplied (an opaque picture already
        // is). What it never reaches stays this grey.
        let opaque = !hasAlpha(data)
        let image = PixelImage(width: size.width, height: size.height, isOpaque: opaque)
        for y in 0..<size.height {
            (image.bytes + y * image.stride).initializeMemory(as: UInt32.self, repeating: 0xFF80_8080, count: size.width)
        }
        var alpha: Int32 = 0
        var reader = photozoom_png_reader()
        let outcome = data.withUnsafeBufferPointer { bytes in
            reader.data = bytes.baseAddress
            reader.size = bytes.count
            return photozoom_png_decode(&reader, image.bytes.assumingMemoryBound(to: UInt8.self), image.stride,
                                        png_uint_32(width), png_uint_32(height), png_uint_32(shrink), &alpha)
        }
        let message = withUnsafeBytes(of: reader.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard outcome != -2 else { throw .tooLarge(width: width, height: height) }   // interlaced, too wide to hold
        guard outcome >= 0 else { throw .corrupt(format: "PNG", detail: message.isEmpty ? "the header can't be read" : message) }
        if !opaque { premultiplyInPlace(image) }
        return (image, (width, height), outcome == 1 ? nil : "truncated or damaged PNG (\(message)); showing what was decoded")
    }

    /// B, G, R, A words premultiplied by their alpha, as Cairo's ARGB32 holds them.
    private static func premultiplyInPlace(_ image: PixelImage) {
        for y in 0..<image.height {
            let words = (image.bytes + y * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<image.width {
                let p = words[x], a = p >> 24
                guard a != 255 else { continue }
                // c * a / 255, rounded as Cairo rounds.
                func times(_ c: UInt32) -> UInt32 { let t = c * a + 128; return (t + (t >> 8)) >> 8 }
                words[x] = a << 24 | times(p >> 16 & 0xFF) << 16 | times(p >> 8 & 0xFF) << 8 | times(p & 0xFF)
            }
        }
    }

    /// The colour type has alpha, or a tRNS chunk comes before the image data.
    static func hasAlpha(_ b: [UInt8]) -> Bool {
        guard b.count > 25, b[25] & 4 == 0 else { return true }
        var at = 8
        while at + 8 <= b.count {
            let length = Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            let type = b[(at + 4)..<(at + 8)]
            if type.elementsEqual("tRNS".utf8) { return true }
            if type.elementsEqual("IDAT".utf8) { return false }
            at += 12 + length
        }
        return false
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
