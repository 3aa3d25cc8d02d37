import Foundation
import Imaging
import Logging
import Pixels
import Threads

/// A recording made while the window runs. The loop hands over a copy of each frame it presents;
/// a worker thread, below the loop's priority, brings it to sRGB (from the display's colours) and
/// encodes it, and writes the file once the
/// recording is stopped and every frame is in. If the encoder falls behind by more than
/// `maxQueuedBytes`, frames are dropped (and that said once) rather than memory spent without end.
// Unchecked: `lastTaken` is the window thread's alone, and `recorder` the worker's once started.
public final class BackgroundRecorder: @unchecked Sendable {
    public static let maxQueuedBytes = 768 << 20
    /// Below the decoders (which are below the frame loop).
    static let threadPriority = ThreadPriority.lowered(by: 12)

    public var path: String { recorder.path }
    /// The recording's frames, pixels.
    public var frameSize: (width: Int, height: Int) { (recorder.width, recorder.height) }
    /// When the window last handed it a frame (the window's thread only).
    public var lastTaken: Double?
    private let recorder: RunRecorder
    /// The colours the window's frames are in.
    private let colour: ColourTarget
    private let logger: Logger
    /// The frames handed over and not encoded yet, their bytes; when it was stopped; whether the file is written (or
    /// the recording failed); frames left out.
    private struct Queue {
        var frames: [(image: PixelImage, time: Double)] = []
        var queuedBytes = 0
        var end: Double?
        var finished = false
        var dropped = 0
        var failed = false
    }
    private let queue = Locked(Queue())

    /// `wake` is called (on the worker) when the file is written or the recording failed.
    public init(_ recorder: RunRecorder, colour: ColourTarget, logger: Logger, wake: @escaping @Sendable () -> Void) {
        self.recorder = recorder
        self.colour = colour
        self.logger = logger
        Worker.start(named: "photozoom recorder", priority: Self.threadPriority) { [self] in
            work()
            wake()
        }
    }

    public func add(_ image: PixelImage, at time: Double) {
        let firstDropped = queue.withLockWakingWaiters { q -> Bool in
            guard q.end == nil, !q.failed else { return false }
            let bytes = image.stride * image.height
            guard q.queuedBytes + bytes <= Self.maxQueuedBytes else {
                q.dropped += 1
                return q.dropped == 1
            }
            q.frames.append((image, time))
            q.queuedBytes += bytes
            return false
        }
        if firstDropped { logger.warning("recording \(path): the encoder fell behind; frames are left out (try --record-size)") }
    }

    /// Stops taking frames; the file is written when the frames taken are encoded.
    public func stop(at time: Double) {
        queue.withLockWakingWaiters { $0.end = time }
    }

    public var isFinished: Bool { queue.withLock { $0.finished } }

    /// Blocks until the file is written (the window closing while a recording finishes).
    public func waitUntilFinished() {
        queue.wait(until: \.finished) { _ in }
    }

    private func work() {
        while true {
            let (next, end) = queue.wait(until: { !$0.frames.isEmpty || $0.end != nil }) { q in
                let next = q.frames.isEmpty ? nil : q.frames.removeFirst()
                if let next { q.queuedBytes -= next.image.stride * next.image.height }
                return (next, q.end)
            }
            do {
                if let next {
                    colour.convertToSRGB(next.image)
                    try recorder.add(next.image, at: next.time)
                    continue
                }
                try recorder.finish(at: end ?? 0)
                logger.info("saved recording \(path)")
            } catch {
                logger.error("\(error)")
                queue.withLock { $0.failed = true }
            }
            break
        }
        queue.withLockWakingWaiters {
            $0.finished = true
            $0.frames = []
        }
    }
}
