import CTurboJPEG
import Foundation
import Pixels

/// JPEG through libjpeg-turbo's TurboJPEG API: baseline, progressive, greyscale and CMYK, with the
/// library's DCT-domain reduced-size decoding (1/8, 1/4, 1/2 …) when a smaller picture will do.
enum JPEGDecoder {
    /// The upright picture, reduced by the library's smallest factor that still covers
    /// `request.atLeast`, with its EXIF orientation applied and its ICC profile read.
    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        let data = request.data
        let orientation = ExifOrientation(jpeg: data)
        let stored = try decodeStored(data, atLeast: orientation.stored(request.atLeast))
        return DecoderOutput(image: orientation.apply(to: stored.image), fullSize: orientation.upright(stored.full),
                             colour: ICCProfile.inJPEG(data).map(ColourDescription.icc) ?? .sRGB, problem: stored.problem)
    }

    /// Decodes `data` as stored (no orientation), picking the smallest scaling factor whose result
    /// still covers `atLeast`; the whole picture when `atLeast` is nil.
    /// A file cut short (a download that stopped) gives the rows that were there, the rest grey as the
    /// library fills them, and a `problem` saying so. A warning about bytes the library skipped (a few
    /// extraneous bytes before a marker, which `djpeg` and every browser show past) is not a problem.
    static func decodeStored(_ data: [UInt8], atLeast: (width: Int, height: Int)?) throws(ImageDecodeError)
        -> (image: PixelImage, full: (width: Int, height: Int), problem: String?) {
        guard let handle = tjInitDecompress() else {
            throw .corrupt(format: "JPEG", detail: "libjpeg-turbo could not start a decoder")
        }
        defer { tjDestroy(handle) }

        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let headerStatus = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        // A warning (skipped bytes) still reads the header.
        guard headerStatus == 0 || isWarning(handle) && width > 0 && height > 0 else { throw error(handle) }
        try ImageLimits.checkPixels(width: Int(width), height: Int(height))
        // Every 8×8 block of a component takes at least a bit (its DC code), even in a progressive file.
        try ImageLimits.checkClaim(format: "JPEG", width: Int(width), height: Int(height), bytes: data.count, pixelsPerByte: 64 * 8)

        var (w, h) = scaledSize(width: Int(width), height: Int(height), atLeast: atLeast)
        if max(w, h) > ImageLimits.maxSide {
            // Wider than Cairo can hold (a long panorama): the largest of the library's reductions that fits.
            let fit = ImageLimits.withinSides((Int(width), Int(height)))
            (w, h) = scaledSize(width: Int(width), height: Int(height), atMost: fit)
            guard max(w, h) <= ImageLimits.maxSide else { throw .tooLarge(width: Int(width), height: Int(height)) }
        }
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let out = PixelImage(width: w, height: h, isOpaque: true)   // JPEG has no alpha
        // BGRA in memory is Cairo's ARGB32 on a little-endian machine; JPEG has no alpha, so 0xFF
        // alpha is already premultiplied. CMYK can't be converted by the library: take it raw.
        let format = isCMYK ? TJPF_CMYK : TJPF_BGRA
        let status = data.withUnsafeBufferPointer {
            tjDecompress2(handle, $0.baseAddress, UInt($0.count),
                          out.bytes.assumingMemoryBound(to: UInt8.self),
                          // A progressive file of thousands of scans (each a pass over the whole picture) is refused.
                          Int32(w), Int32(out.stride), Int32(h), format.rawValue, TJFLAG_LIMITSCANS)
        }
        var problem: String?
        if status != 0 {
            // A warning (the data ends early, say) still gives a picture; an error gives none.
            guard isWarning(handle) else { throw error(handle) }
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "a warning"
            if !message.contains("extraneous bytes") {
                problem = "truncated or damaged JPEG (\(message)); showing what was decoded"
            }
        }
        if isCMYK { convertCMYKInPlace(out, adobeInverted: hasAdobeMarker(data)) }
        return (out, (Int(width), Int(height)), problem)
    }

    /// The decoded size for the largest of the library's factors that stays within `atMost`.
    static func scaledSize(width: Int, height: Int, atMost: (width: Int, height: Int)) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (Int.max, Int.max)
        for i in 0..<Int(count) {
            let f = factors[i]
            let w = (width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            let h = (height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            if w <= atMost.width, h <= atMost.height, best.0 == .max || w * h > best.0 * best.1 { best = (w, h) }
        }
        return best
    }

    /// The decoded size for the smallest of the library's factors (at most 1) that covers `atLeast`.
    static func scaledSize(width: Int, height: Int, atLeast: (width: Int, height: Int)?) -> (Int, Int) {
        guard let atLeast else { return (width, height) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for i in 0..<Int(count) {
            let f = factors[i]
            guard f.num <= f.denom else { continue }
            // TJSCALED: ceil(dimension * num / denom)
            let w = (width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            let h = (height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            if w >= atLeast.width, h >= atLeast.height, w * h < best.0 * best.1 { best = (w, h) }
        }
        return best
    }

    private static func isWarning(_ handle: tjhandle) -> Bool { tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) }

    /// The library's error in the project's words: a valid file of a kind it can't decode is
    /// "unsupported", not "damaged".
    private static func error(_ handle: tjhandle) -> ImageDecodeError {
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
        if message.hasPrefix("Unsupported JPEG data precision") {
            return .unsupported(format: "JPEG", detail: "\(message.split(separator: " ").last ?? "")-bit samples (only 8-bit JPEGs are decoded)")
        }
        if message.contains("DNL not supported") {
            return .unsupported(format: "JPEG", detail: "its height is given by a DNL marker after the image data")
        }
        if message.lowercased().contains("unsupported") || message.contains("not supported") {
            return .unsupported(format: "JPEG", detail: message)
        }
        return .corrupt(format: "JPEG", detail: message)
    }

    /// Adobe's APP14 marker means the CMYK samples are stored inverted (as Photoshop writes them).
    private static func hasAdobeMarker(_ b: [UInt8]) -> Bool {
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA { return false }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker == 0xEE, b[(i + 4)...].starts(with: Array("Adobe".utf8)) { return true }
            i += 2 + length
        }
        return false
    }

    /// Turns C, M, Y, K bytes into opaque RGB with the naive (un-managed) conversion.
    private static func convertCMYKInPlace(_ image: PixelImage, adobeInverted: Bool) {
        for y in 0..<image.height {
            let row = image.bytes.advanced(by: y * image.stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<image.width {
                let p = row.advanced(by: x * 4)
                var c = Int(p[0]), m = Int(p[1]), yy = Int(p[2]), k = Int(p[3])
                if !adobeInverted { c = 255 - c; m = 255 - m; yy = 255 - yy; k = 255 - k }
                // Now each value is the amount of light let through: 255 = no ink.
                let r = c * k / 255, g = m * k / 255, b = yy * k / 255
                p[0] = UInt8(b); p[1] = UInt8(g); p[2] = UInt8(r); p[3] = 255
            }
        }
    }
}
