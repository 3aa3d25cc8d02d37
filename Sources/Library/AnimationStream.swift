import Foundation
import Imaging
import Pixels
import SystemPackage
import Threads

/// The frames of one animated photo, decoded ahead on a thread of its own while it plays: a few
/// frames at most (and a bounded number of bytes), so that a 500-frame 4K GIF never holds 500
/// decoded frames. Loops are played here (the file's loop count honoured); after the last play it
/// gives `.end`. While the frames it holds are not taken (paused, or not shown) it decodes nothing.
public final class AnimationStream: Sendable {
    /// Frames decoded ahead of the one on screen…
    public static let framesAhead = 3
    /// …and no more bytes of them than this.
    public static let bytesAhead = 64 << 20

    public enum Item: Sendable {
        case frame(AnimatedImage.Frame)
        /// The last play ended: the frame on screen stays.
        case end
        /// The file could not be read (again); the frame on screen stays.
        case failed(ImageDecodeError)
    }

    /// The items decoded and not taken yet, their frames' bytes, whether it was stopped, whether the last is in, and a
    /// seek asked for. Each seek starts a new generation: a frame decoded before it is not put in.
    private struct Queue: Sendable {
        var ready: [Item] = []
        var readyBytes = 0
        var stopped = false
        var done = false
        var seekTo: Double?
        var generation = 0
        var isFull: Bool { ready.count >= AnimationStream.framesAhead || readyBytes >= AnimationStream.bytesAhead }
    }
    private let queue = Locked(Queue())

    /// Starts decoding photo `path`'s frames to cover `covering` px, in `colour`'s space; `wake` is
    /// called (on the stream's thread) when a frame is ready.
    public init(path: FilePath, movie: EmbeddedMovie? = nil, covering: PixelSize, colour: ColourTarget, wake: @escaping @Sendable () -> Void) {
        // At the window's priority, not the decoders' lower one: its frames are due at set times, and at
        // nice 10 it had a tenth of a core's share against any ordinary process (under the sanitizer's
        // test load a GIF's last frame came a second late). It decodes at most a few frames ahead.
        Worker.start(named: "photozoom-animation") { [self] in
            run(path: path, movie: movie, covering: (covering.width, covering.height), colour: colour, wake: wake)
        }
    }

    /// Stops the thread (it lets the file and its frames go).
    public func stop() {
        queue.withLockWakingWaiters {
            $0.stopped = true
            $0.ready = []
        }
    }

    deinit { stop() }

    /// How many items are decoded and not taken.
    public var readyCount: Int { queue.withLock { $0.ready.count } }

    /// The next item if it is decoded.
    public func takeNext() -> Item? {
        queue.withLockWakingWaiters { q in
            guard !q.ready.isEmpty else { return nil }
            let item = q.ready.removeFirst()
            if case .frame(let frame) = item { q.readyBytes -= frame.image.stride * frame.image.height }
            return item
        }
    }

    /// To the frame showing at `seconds` (a clip's scrub bar, a frame step): the frames decoded ahead are dropped, and
    /// the next one taken is that one. After the end too: the stream waits for a seek until it is stopped.
    public func seek(to seconds: Double) {
        queue.withLockWakingWaiters { q in
            (q.ready, q.readyBytes, q.done, q.seekTo) = ([], 0, false, seconds)
            q.generation += 1
        }
    }

    /// Blocks until the next item is decoded (headless runs: every frame is on time).
    public func waitForNext() {
        queue.wait(until: { !$0.ready.isEmpty || $0.done || $0.stopped }) { _ in }
    }

    private func run(path: FilePath, movie: EmbeddedMovie?, covering: (width: Int, height: Int), colour: ColourTarget,
                     wake: @escaping @Sendable () -> Void) {
        let animation: any AnimationFrames
        do throws(ImageDecodeError) {
            guard let opened = try AnimatedImage.open(file: path, colour: colour, movie: movie) else { return finish(.end, wake) }
            animation = opened
        } catch {
            return finish(.failed(error), wake)
        }
        var plays = 0, framesThisPlay = 0
        // Waits for room, or a seek (or, after the end, for a seek alone).
        while let (seek, generation) = queue.wait(until: { $0.stopped || $0.seekTo != nil || !$0.isFull && !$0.done },
                                                  then: { q -> (Double?, Int)? in
            defer { q.seekTo = nil }
            return q.stopped ? nil : (q.seekTo, q.generation)
        }) {
            do throws(ImageDecodeError) {
                if let seek {
                    try animation.seek(to: seek)
                    (plays, framesThisPlay) = (0, 0)
                    continue
                }
                if let frame = try animation.nextFrame(covering: covering) {
                    put(.frame(frame), generation: generation, wake)
                    framesThisPlay += 1
                    continue
                }
                plays += 1
                // A play without a frame (all of them damaged) would loop for ever doing nothing.
                guard framesThisPlay > 0, animation.loopCount == 0 || plays < animation.loopCount else {
                    finish(.end, generation: generation, wake)
                    continue
                }
                framesThisPlay = 0
                try animation.rewind()
            } catch {
                finish(.failed(error), generation: generation, wake)
            }
        }
    }

    /// A frame in, unless a seek came since it was begun.
    private func put(_ item: Item, generation: Int, _ wake: @Sendable () -> Void) {
        queue.withLockWakingWaiters { q in
            guard q.generation == generation, case .frame(let frame) = item else { return }
            q.ready.append(item)
            q.readyBytes += frame.image.stride * frame.image.height
        }
        wake()
    }

    /// The end (or a failure): the last item, unless a seek came since.
    private func finish(_ item: Item, generation: Int? = nil, _ wake: @Sendable () -> Void) {
        queue.withLockWakingWaiters {
            guard generation == nil || $0.generation == generation else { return }
            if !$0.stopped { $0.ready.append(item) }
            $0.done = true
        }
        wake()
    }
}
