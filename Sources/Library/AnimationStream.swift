import Foundation
import Imaging
import Pixels
import SystemPackage

/// The frames of one animated photo, decoded ahead on a thread of its own while it plays: a few
/// frames at most (and a bounded number of bytes), so that a 500-frame 4K GIF never holds 500
/// decoded frames. Loops are played here (the file's loop count honoured); after the last play it
/// gives `.end`. While the frames it holds are not taken (paused, or not shown) it decodes nothing.
public final class AnimationStream: @unchecked Sendable {
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

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [Item] = []
    private var readyBytes = 0
    private var stopped = false
    private var done = false

    /// Starts decoding photo `path`'s frames to cover `covering` px, in `colour`'s space; `wake` is
    /// called (on the stream's thread) when a frame is ready.
    public init(path: FilePath, covering: PixelSize, colour: ColourTarget, wake: @escaping @Sendable () -> Void) {
        // At the window's priority, not the decoders' lower one: its frames are due at set times, and at
        // nice 10 it had a tenth of a core's share against any ordinary process (under the sanitizer's
        // test load a GIF's last frame came a second late). It decodes at most a few frames ahead.
        let thread = Thread { [self] in
            run(path: path, covering: (covering.width, covering.height), colour: colour, wake: wake)
        }
        thread.name = "photozoom-animation"
        thread.start()
    }

    /// Stops the thread (it lets the file and its frames go).
    public func stop() {
        condition.withLock {
            stopped = true
            ready = []
            condition.broadcast()
        }
    }

    deinit { stop() }

    /// The next item if it is decoded.
    public func takeNext() -> Item? {
        condition.withLock {
            guard !ready.isEmpty else { return nil }
            let item = ready.removeFirst()
            if case .frame(let frame) = item { readyBytes -= frame.image.stride * frame.image.height }
            condition.broadcast()
            return item
        }
    }

    /// Blocks until the next item is decoded (headless runs: every frame is on time).
    public func waitForNext() {
        condition.withLock {
            while ready.isEmpty && !done && !stopped { condition.wait() }
        }
    }

    private func run(path: FilePath, covering: (width: Int, height: Int), colour: ColourTarget, wake: @escaping @Sendable () -> Void) {
        let animation: any AnimationFrames
        do throws(ImageDecodeError) {
            guard let opened = try AnimatedImage.open(file: path, colour: colour) else { return finish(.end, wake) }
            animation = opened
        } catch {
            return finish(.failed(error), wake)
        }
        var plays = 0, framesThisPlay = 0
        while true {
            // Wait for room.
            let go = condition.withLock { () -> Bool in
                while !stopped && (ready.count >= Self.framesAhead || readyBytes >= Self.bytesAhead) { condition.wait() }
                return !stopped
            }
            guard go else { return }
            do throws(ImageDecodeError) {
                if let frame = try animation.nextFrame(covering: covering) {
                    condition.withLock {
                        ready.append(.frame(frame))
                        readyBytes += frame.image.stride * frame.image.height
                        condition.broadcast()
                    }
                    framesThisPlay += 1
                    wake()
                    continue
                }
                plays += 1
                // A play without a frame (all of them damaged) would loop for ever doing nothing.
                guard framesThisPlay > 0, animation.loopCount == 0 || plays < animation.loopCount else { return finish(.end, wake) }
                framesThisPlay = 0
                try animation.rewind()
            } catch {
                return finish(.failed(error), wake)
            }
        }
    }

    private func finish(_ item: Item, _ wake: @Sendable () -> Void) {
        condition.withLock {
            if !stopped { ready.append(item) }
            done = true
            condition.broadcast()
        }
        wake()
    }
}
