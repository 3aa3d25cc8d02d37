import Foundation
import Pixels
import Recording

/// A recording in progress: the frames a run draws, timed from the first, go to the encoder that
/// the path's extension names, at the recording's size (`width`×`height`: the runs draw or shrink
/// each frame to it); `finish` writes the file.
public final class RunRecorder {
    public let path: String
    public let format: AnimationFormat
    /// The recording's frames, in pixels.
    public let width: Int, height: Int
    private let encoder: any AnimationEncoder
    private var start: Double?
    private var last = 0.0

    /// `viewWidth`×`viewHeight`: the frames the run draws, in pixels. `live`: a window's frames, as it runs.
    public init(path: String, viewWidth: Int, viewHeight: Int, limit: WindowSize?, fps: Double, live: Bool = false) throws {
        format = AnimationFormat(path: path)
        try RecordingFile.check(path, format: format)
        (width, height) = format.frameSize(width: viewWidth, height: viewHeight, limit: limit.map { ($0.width, $0.height) })
        self.path = path
        do {
            encoder = try format.makeEncoder(width: width, height: height, fps: fps, live: live)
        } catch {
            throw RecordingFileError(path: path, reason: error.description)
        }
    }

    /// `frame` is `width`×`height`; `time` on the run's clock, in seconds.
    public func add(_ frame: PixelImage, at time: Double) throws {
        let start = start ?? time
        self.start = start
        last = time - start
        do {
            try encoder.add(frame, at: last)
        } catch {
            throw RecordingFileError(path: path, reason: error.description)
        }
    }

    /// `time`: when the last frame stops showing, on the run's clock.
    public func finish(at time: Double) throws {
        let animation: RecordedAnimation
        do {
            animation = try encoder.finish(at: max(last, time - (start ?? time)))
        } catch {
            throw RecordingFileError(path: path, reason: error.description)
        }
        try RecordingFile.write(animation, to: path)
    }
}
