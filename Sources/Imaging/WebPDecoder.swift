import CWebP
import Pixels

/// WebP (lossy, lossless, with alpha) through libwebp, decoded straight into premultiplied BGRA,
/// scaled by the library when a smaller picture is asked for.
enum WebPDecoder {
    static func decode(_ data: [UInt8], atLeast: (width: Int, height: Int)?) throws(ImageDecodeError) -> (image: PixelImage, full: (width: Int, height: Int)) {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .corrupt(format: "WebP", detail: "libwebp version mismatch")
        }
        let featureStatus = data.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard featureStatus == VP8_STATUS_OK else { throw corrupt(featureStatus) }
        let width = Int(config.input.width), height = Int(config.input.height)
        try ImageLimits.checkPixels(width: width, height: height)

        var (w, h) = (width, height)
        if let atLeast {
            let scale = min(1, max(Double(atLeast.width) / Double(width), Double(atLeast.height) / Double(height)))
            (w, h) = (max(1, Int((Double(width) * scale).rounded(.up))), max(1, Int((Double(height) * scale).rounded(.up))))
        }
        if max(w, h) > ImageLimits.maxSide { (w, h) = ImageLimits.withinSides((w, h)) }   // a long panorama, reduced
        if (w, h) != (width, height) {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(w)
            config.options.scaled_height = Int32(h)
        }
        let out = PixelImage(width: w, height: h, isOpaque: config.input.has_alpha == 0)
        config.output.colorspace = MODE_bgrA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = out.bytes.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(out.stride)
        config.output.u.RGBA.size = out.stride * h
        let status = data.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw corrupt(status) }
        return (out, (width, height))
    }

    private static func corrupt(_ status: VP8StatusCode) -> ImageDecodeError {
        let detail: String
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: detail = "the file is truncated"
        case VP8_STATUS_BITSTREAM_ERROR: detail = "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: detail = "unsupported feature"
        case VP8_STATUS_OUT_OF_MEMORY: detail = "out of memory"
        default: detail = "libwebp status \(status.rawValue)"
        }
        return .corrupt(format: "WebP", detail: detail)
    }
}
