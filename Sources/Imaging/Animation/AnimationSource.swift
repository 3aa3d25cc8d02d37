import Pixels

/// An animated file's frames, read one after the other: each is the whole canvas as it shows while
/// that frame is up (the format's blending and disposal done). A source holds the file and what
/// composing the next frame needs, never all its frames.
protocol AnimationSource: AnyObject {
    /// The canvas, px.
    var size: (width: Int, height: Int) { get }
    /// How many times the animation plays; 0 for ever.
    var loopCount: Int { get }
    /// The next frame and how long it stays, s (as the file says); nil after the last one.
    func nextFrame() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)?
    /// The next frame made to cover `covering` px where the source can make it that size at once (a clip's picture,
    /// scaled as it is converted); else the whole canvas, which the caller shrinks.
    func nextFrame(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> (image: PixelImage, delay: Double)?
    /// Back to before the first frame.
    func rewind() throws(ImageDecodeError)
    /// To the frame at `seconds`, at once where the source can (a clip, from its key picture before it): false where
    /// it cannot, and the caller plays up to it.
    func seek(to seconds: Double) throws(ImageDecodeError) -> Bool
    /// The time of the frame just given, s from the start, where the source knows it better than a sum of delays.
    var lastFrameTime: Double? { get }
}

extension AnimationSource {
    func seek(to seconds: Double) throws(ImageDecodeError) -> Bool { false }
    var lastFrameTime: Double? { nil }

    func nextFrame(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        try nextFrame()
    }
}
