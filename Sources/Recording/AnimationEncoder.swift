import Pixels

/// Turns a run's frames into an animation. Frames come in order with their time in seconds from the
/// start of the recording; `finish` gets the time the last frame stops showing. Nothing is written
/// here: the caller writes what `finish` returns, whole or not at all.
public protocol AnimationEncoder: AnyObject {
    func add(_ frame: PixelImage, at time: Double) throws(RecordingError)
    func finish(at end: Double) throws(RecordingError) -> RecordedAnimation
}

/// A finished recording: one file's bytes, or (a folder) the frames' PNG files in order.
public enum RecordedAnimation: Sendable {
    case file([UInt8])
    case frames([[UInt8]])
}

/// A recording that cannot be made: one line in plain words.
public struct RecordingError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
