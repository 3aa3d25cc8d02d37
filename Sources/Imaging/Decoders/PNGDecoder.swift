import CPNG
import Pixels

/// PNG through libpng, every colour type and bit depth (palette, greyscale, 16-bit, with or without
/// alpha or tRNS) expanded to ARGB32 as Cairo's loader expands them. The header is checked first so
/// an absurd claimed size is refused before anything is allocated. A file cut short (or damaged past
/// its header) shows the rows decoded before the damage, the rest grey, and says so. A panorama wider
/// than Cairo can hold is averaged down as it is read (an interlaced one is refused).
enum PNGDecoder {
    static func matches(_ head: ArraySlice<UInt8>) -> Bool { head.starts(with: signature) }
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The upright picture (its `eXIf` orientation applied) and its colour description. PNG has no
    /// reduced decode: a smaller picture is shrunk from the whole one by the caller.
    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        let orientation = ExifOrientation(png: request.data)
        let stored = try decodeStored(request.data)
        return DecoderOutput(image: orientation.apply(to: stored.image), fullSize: orientation.upright(stored.full),
                             colour: colour(request.data), problem: stored.problem)
    }

    /// The picture, the file's own size, and what was wrong with a file that still gave one. A picture
    /// wider or taller than Cairo's 32767 px, within the pixel limit, comes reduced by a whole factor.
    static func decodeStored(_ data: [UInt8]) throws(ImageDecodeError) -> (image: PixelImage, full: (width: Int, height: Int), problem: String?) {
        let (width, height) = try headerSize(data)
        try ImageLimits.checkPixels(width: width, height: height)
        try ImageLimits.checkClaim(format: "PNG", width: width, height: height, bytes: data.count,
                                   pixelsPerByte: max(1, deflateMostExpansion * 8 / bitsPerPixel(data)))
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

    /// The colour the numbers mean, by the PNG specification's precedence: `cICP`, then an `iCCP`
    /// profile, then `sRGB`, then `gAMA` and `cHRM`; untagged is sRGB.
    static func colour(_ b: [UInt8]) -> ColourDescription {
        var icc: [UInt8]?, isSRGB = false, gamma: Double?, primaries: Chromaticities?
        func u32(_ at: Int) -> Double { Double(Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])) }
        for chunk in PNGChunks(b[...]) {
            let p = chunk.payload
            switch chunk.type {
            case "cICP" where p.count == 4 && b[p.lowerBound + 2] == 0:   // RGB only (matrix 0)
                return .cicp(primaries: Int(b[p.lowerBound]), transfer: Int(b[p.lowerBound + 1]))
            case "iCCP":
                // A name of 1–79 bytes, a zero, the compression method (0), then the deflated profile.
                guard let end = b[p].firstIndex(of: 0), end > p.lowerBound, end + 2 <= p.upperBound, b[end + 1] == 0 else { break }
                icc = Inflate.bytes(b[(end + 2)..<p.upperBound], limit: ICCProfile.maxBytes)
            case "sRGB": isSRGB = true
            case "gAMA" where p.count == 4: gamma = u32(p.lowerBound) / 100_000
            case "cHRM" where p.count == 32:
                let v = (0..<8).map { u32(p.lowerBound + $0 * 4) / 100_000 }
                primaries = Chromaticities(white: (v[0], v[1]), red: (v[2], v[3]), green: (v[4], v[5]), blue: (v[6], v[7]))
            default: break
            }
        }
        if let icc { return .icc(icc) }
        if isSRGB { return .sRGB }
        if gamma != nil || primaries != nil { return .gammaAndPrimaries(gamma: gamma, primaries: primaries) }
        return .sRGB
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
        return PNGChunks(b[...]).contains { $0.type == "tRNS" }
    }

    /// The most deflate expands its input: 1032 bytes from one (258-byte matches, each 2 bits at best).
    static let deflateMostExpansion = 1032

    /// Bits a pixel holds in the file by its IHDR (bit depth times the colour type's channels); 1 when unknown.
    static func bitsPerPixel(_ b: [UInt8]) -> Int {
        guard b.count > 25 else { return 1 }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(b[25])] ?? 1
        return max(1, Int(b[24]) * channels)
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
