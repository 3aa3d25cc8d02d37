import CWebP
import CWebPDemux
import Pixels

/// WebP (lossy, lossless, with alpha) through libwebp, decoded straight into premultiplied BGRA,
/// scaled by the library when a smaller picture is asked for. An animated WebP goes through
/// libwebpdemux's `WebPAnimDecoder`, which composes each frame on the canvas.
enum WebPDecoder {
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        head.count >= 12 && head.prefix(4).elementsEqual("RIFF".utf8) && head.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        let data = request.data
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw corrupt(status) }
        let orientation = ExifOrientation(webp: data)
        let colour = ICCProfile.inWebP(data).map(ColourDescription.icc) ?? .sRGB
        if features.has_animation != 0 {
            let animation = try WebPAnimation(data)
            guard let first = try animation.nextFrame() else { throw .corrupt(format: "WebP", detail: "an animation without frames") }
            return DecoderOutput(image: first.image, fullSize: animation.size, colour: colour, isAnimated: true)
        }
        let stored = try decodeStill(data, atLeast: orientation.stored(request.atLeast))
        return DecoderOutput(image: orientation.apply(to: stored.image), fullSize: orientation.upright(stored.full), colour: colour)
    }

    static func animation(_ data: [UInt8]) throws(ImageDecodeError) -> any AnimationSource { try WebPAnimation(data) }

    /// The extended header (VP8X, the first chunk) has its animation flag set.
    static func moves(_ head: ArraySlice<UInt8>) -> Bool {
        let b = Array(head.prefix(21))
        return b.count == 21 && b[12..<16].elementsEqual("VP8X".utf8) && b[20] & 0x02 != 0
    }

    /// A still picture as stored, scaled by the library to cover `atLeast`.
    private static func decodeStill(_ data: [UInt8], atLeast: (width: Int, height: Int)?) throws(ImageDecodeError)
        -> (image: PixelImage, full: (width: Int, height: Int)) {
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

    static func corrupt(_ status: VP8StatusCode) -> ImageDecodeError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .corrupt(format: "WebP", detail: "the file is truncated")
        case VP8_STATUS_BITSTREAM_ERROR: .corrupt(format: "WebP", detail: "bitstream error")
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupported(format: "WebP", detail: "a feature libwebp does not decode")
        case VP8_STATUS_OUT_OF_MEMORY: .corrupt(format: "WebP", detail: "out of memory")
        default: .corrupt(format: "WebP", detail: "libwebp status \(status.rawValue)")
        }
    }
}

/// An animated WebP's frames through `WebPAnimDecoder`, premultiplied BGRA (Cairo's words). The
/// decoder holds the file's bytes and one canvas.
final class WebPAnimation: AnimationSource {
    private let data: UnsafeMutableBufferPointer<UInt8>
    private let decoder: OpaquePointer
    let size: (width: Int, height: Int)
    let loopCount: Int
    /// The end of the last frame given, ms from the start.
    private var lastTimestamp: Int32 = 0

    init(_ bytes: [UInt8]) throws(ImageDecodeError) {
        // The decoder reads the bytes for as long as it lives.
        // libwebpdemux allocates the canvas as it opens: its size is checked first (found by the fuzzer:
        // a 262-byte file claimed 65856×52016).
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw WebPDecoder.corrupt(status) }
        try ImageLimits.checkAnimation(width: Int(features.width), height: Int(features.height))
        data = .allocate(capacity: bytes.count)
        _ = data.initialize(from: bytes)
        var options = WebPAnimDecoderOptions()
        var webp = WebPData(bytes: UnsafePointer(data.baseAddress), size: data.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            data.deallocate()
            throw .corrupt(format: "WebP", detail: "libwebpdemux version mismatch")
        }
        options.color_mode = MODE_bgrA
        options.use_threads = 0
        var info = WebPAnimInfo()
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            data.deallocate()
            throw .corrupt(format: "WebP", detail: "the animation can't be read")
        }
        // Checked before the last property is set: a throw after it would run deinit, which frees
        // these again (found by the fuzzer).
        do throws(ImageDecodeError) {
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw .corrupt(format: "WebP", detail: "the animation can't be read") }
            try ImageLimits.checkAnimation(width: Int(info.canvas_width), height: Int(info.canvas_height))
        } catch {
            WebPAnimDecoderDelete(decoder)
            data.deallocate()
            throw error
        }
        size = (Int(info.canvas_width), Int(info.canvas_height))
        loopCount = Int(info.loop_count)
        self.decoder = decoder
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        data.deallocate()
    }

    func nextFrame() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
            throw .corrupt(format: "WebP", detail: "a damaged animation frame")
        }
        let image = PixelImage(width: size.width, height: size.height)
        image.bytes.copyMemory(from: pixels, byteCount: image.stride * image.height)
        defer { lastTimestamp = timestamp }
        return (image, Double(timestamp - lastTimestamp) / 1000)
    }

    func rewind() {
        WebPAnimDecoderReset(decoder)
        lastTimestamp = 0
    }
}
