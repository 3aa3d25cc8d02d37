import CCairo
import Foundation
import Imaging
import Logging
import Pixels

/// The window's recordings: `--record`'s and the one `r` started take the frames; stopped ones go
/// on encoding in the background until their file is written. A frame is taken at most `fps` times
/// a second and scaled to the recording's size on the spot (a 1080p window's frame costs about a
/// millisecond to shrink, and its encoder then keeps up on the spare core); a frame left out that
/// turns out to be the last before the scene rests is drawn again at rest, so a recording ends
/// where the window does.
public struct WindowRecordings {
    /// Frames a second taken from the window.
    public static let fps = 30.0
    /// What a window recording fits in unless `--record-size` says otherwise: a 1080p window gives
    /// 960x540 (its frames encode in about 14 ms).
    public static let defaultSize = WindowSize(width: 960, height: 960)

    private var fromOption: BackgroundRecorder?
    private var fromKey: BackgroundRecorder?
    private var stopped: [BackgroundRecorder] = []
    /// A frame left out since the last taken (its time).
    private var leftOut: Double?

    public var isRecording: Bool { fromOption != nil || fromKey != nil }
    public var isRecordingByKey: Bool { fromKey != nil }
    public var keyPath: String? { fromKey?.path }
    public var wantsRestingFrame: Bool { leftOut != nil && isRecording }
    public init() {}

    private var active: [BackgroundRecorder] { [fromOption, fromKey].compactMap { $0 } }

    public mutating func start(_ recorder: BackgroundRecorder, byKey: Bool) {
        if byKey { fromKey = recorder } else { fromOption = recorder }
    }

    /// The frame just drawn on `surface` (before the red dot), shown at `time`.
    public mutating func framePresented(_ surface: OpaquePointer, at time: Double, logger: Logger) {
        var tookAll = true
        for recorder in active {
            // Within a frame of the rate counts: 60 Hz frames land 33.3 ms apart give or take a little.
            if let last = recorder.lastTaken, time - last < 1 / Self.fps - 0.004 {
                tookAll = false
                continue
            }
            do {
                let (w, h) = recorder.frameSize
                recorder.add(try PixelImage(scaling: surface, toWidth: w, height: h), at: time)
                recorder.lastTaken = time
            } catch {
                logger.error("recording \(recorder.path): \(error)")
            }
        }
        leftOut = tookAll ? nil : time
    }

    /// The scene at rest, drawn by `draw` into each recording's frame, for the frame left out last.
    public mutating func restingFrame(at time: Double, logger: Logger, draw: (PixelImage) throws -> Void) {
        guard let shown = leftOut else { return }
        leftOut = nil
        for recorder in active {
            let (w, h) = recorder.frameSize
            let image = PixelImage(width: w, height: h, isOpaque: true)
            do {
                try draw(image)
                recorder.add(image, at: shown)
                recorder.lastTaken = shown
            } catch {
                logger.error("recording \(recorder.path): \(error)")
            }
        }
    }

    public mutating func stopKeyRecording(at time: Double) {
        guard let recorder = fromKey else { return }
        recorder.stop(at: time)
        stopped.append(recorder)
        fromKey = nil
    }

    public mutating func forgetFinished() { stopped.removeAll { $0.isFinished } }

    /// The window is closing: every recording is stopped, and (`waiting`) written before it goes.
    public mutating func stopAll(at time: Double, waiting: Bool) {
        for recorder in active {
            recorder.stop(at: time)
            stopped.append(recorder)
        }
        fromOption = nil
        fromKey = nil
        if waiting { for recorder in stopped { recorder.waitUntilFinished() } }
        stopped = []
    }
}

/// The red dot in the window's top-right corner while it records; drawn after the frame is
/// copied for the recording, so it is not in it.
public enum RecordingDot {
    public static let radius = 5.0
    public static let inset = 14.0

    public static func draw(on cr: OpaquePointer, windowWidth: Double, scale: Double) {
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_arc(cr, windowWidth - inset * scale, inset * scale, (radius + 1.5) * scale, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
        cairo_arc(cr, windowWidth - inset * scale, inset * scale, radius * scale, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 1, 0.231, 0.188)
        cairo_fill(cr)
        cairo_restore(cr)
    }
}
