import CWebPMux
import Pixels

/// Animated WebP through libwebp's `WebPAnimEncoder`, lossy: it keeps only the part of each frame
/// that changed, and frame times to the millisecond. A lossy encoder counts a pixel that moved by
/// less than a few levels as unchanged, so a slow fade would leave a ghost of what faded out (the
/// grid behind a black viewer) until the next key frame; a key frame at least every `keyFrameEvery`
/// frames keeps such a ghost from lasting (+3 % in size for the demo).
public final class WebPAnimationEncoder: AnimationEncoder {
    /// 0–100; photos at 85 look like the screen at a tenth of the lossless size.
    static let quality: Float = 85
    static let keyFrameEvery: Int32 = 6

    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int32, height: Int32

    /// `method`: libwebp's speed/size trade, 0 fastest … 6 smallest.
    public init(width: Int, height: Int, method: Int32 = 4) throws(RecordingError) {
        guard width <= Int(WEBP_MAX_DIMENSION), height <= Int(WEBP_MAX_DIMENSION) else {
            throw RecordingError("WebP frames are at most \(WEBP_MAX_DIMENSION) px a side (use --record-size)")
        }
        self.width = Int32(width)
        self.height = Int32(height)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw RecordingError("this libwebp does not match the headers it was built with")
        }
        options.anim_params.loop_count = 0   // forever, as the seeds' GIFs
        options.allow_mixed = 0
        options.kmax = Self.keyFrameEvery
        options.kmin = Self.keyFrameEvery / 2
        config.quality = Self.quality
        config.method = method
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw RecordingError("libwebp could not start an animation of \(width)×\(height)")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    public func add(_ frame: PixelImage, at time: Double) throws(RecordingError) {
        precondition(frame.width == width && frame.height == height, "a frame of another size")
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw RecordingError("libwebp could not make a picture") }
        defer { WebPPictureFree(&picture) }
        picture.width = width
        picture.height = height
        picture.use_argb = 1
        // Cairo's ARGB32 words are B, G, R, A bytes on a little-endian machine; the frames are opaque.
        guard WebPPictureImportBGRA(&picture, frame.bytes.assumingMemoryBound(to: UInt8.self), Int32(frame.stride)) != 0,
              WebPAnimEncoderAdd(encoder, &picture, milliseconds(time), &config) != 0 else {
            throw RecordingError("libwebp could not add a frame: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
    }

    public func finish(at end: Double) throws(RecordingError) -> RecordedAnimation {
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAdd(encoder, nil, milliseconds(end), nil) != 0,
              WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw RecordingError("libwebp could not finish the animation: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        return .file(Array(UnsafeBufferPointer(start: bytes, count: data.size)))
    }

    private func milliseconds(_ seconds: Double) -> Int32 { Int32((seconds * 1000).rounded()) }
}
