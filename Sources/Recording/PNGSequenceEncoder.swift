import Imaging
import Pixels

/// Every frame as its own PNG (Cairo's encoder: the same pixels give the same bytes); the timing is
/// the frame rate's.
public final class PNGSequenceEncoder: AnimationEncoder {
    private var frames: [[UInt8]] = []

    public init() {}

    public func add(_ frame: PixelImage, at time: Double) throws(RecordingError) {
        do {
            frames.append(try frame.pngData())
        } catch {
            throw RecordingError("frame \(frames.count + 1): \(error)")
        }
    }

    public func finish(at end: Double) throws(RecordingError) -> RecordedAnimation { .frames(frames) }
}
