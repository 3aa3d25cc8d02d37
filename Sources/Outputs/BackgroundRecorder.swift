import Foundation
import Imaging
import Logging
import Pixels

/// A recording made while the window runs. The loop hands over a copy of each frame it presents;
/// a worker thread, below the loop's priority, brings it to sRGB (from the display's colours) and
/// encodes it, and writes the file once the
/// recording is stopped and every frame is in. If the encoder falls behind by more than
/// `maxQueuedBytes`, frames are dropped (and that said once) rather than memory spent without end.
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
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var frames: [(image: PixelImage, time: Double)] = []
    private var queuedBytes = 0
    private var end: Double?
    private var finished = false
    private var dropped = 0
    private var failed = false

    /// `wake` is called (on the worker) when the file is written or the recording failed.
    public init(_ recorder: RunRecorder, colour: ColourTarget, logger: Logger, wake: @escaping @Sendable () -> Void) {
        self.recorder = recorder
        self.colour = colour
        self.logger = logger
        let thread = Thread { [self] in
            Self.threadPriority.applyToCurrentThread()
            work()
            wake()
        }
        thread.name = "photozoom recorder"
        thread.start()
    }

    public func add(_ image: PixelImage, at time: Double) {
        condition.lock()
        defer { condition.unlock() }
        guard end == nil, !failed else { return }
        let bytes = image.stride * image.height
        if queuedBytes + bytes > Self.maxQueuedBytes {
            dropped += 1
            if dropped == 1 { logger.warning("recording \(path): the encoder fell behind; frames are left out (try --record-size)") }
            return
        }
        frames.append((image, time))
        queuedBytes += bytes
        condition.signal()
    }

    /// Stops taking frames; the file is written when the frames taken are encoded.
    public func stop(at time: Double) {
        condition.lock()
        end = time
        condition.signal()
        condition.unlock()
    }

    public var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Blocks until the file is written (the window closing while a recording finishes).
    public func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while frames.isEmpty && end == nil { condition.wait() }
            let next = frames.isEmpty ? nil : frames.removeFirst()
            if let next { queuedBytes -= next.image.stride * next.image.height }
            let end = self.end
            condition.unlock()
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
                condition.lock()
                failed = true
                condition.unlock()
            }
            break
        }
        condition.lock()
        finished = true
        frames = []
        condition.broadcast()
        condition.unlock()
    }
}
