import Foundation
import Imaging
import Pixels
import Threads

/// Memory for the still subtrees' copies, made where no frame waits for it. A copy of the grid is a
/// screenful: 33 MB at 4K, whose pages, first written in a frame, cost that frame 60–140 ms of page
/// faults on a virtual machine (the zoom-in's second frame takes the grid's copy: 4–7 refreshes
/// missed). In the background a buffer asked for is made (and its pages written) on a thread of its
/// own; until it is ready the subtree is drawn, as it would be without a copy.
final class CopyBuffers {
    /// Below the frame loop, as the halvings (`LevelBuilder`).
    static let threadPriority = ThreadPriority.lowered(by: 19)

    private let maker: Maker?

    /// `inBackground`: made on a thread; else there and then (headless renders and tests).
    init(inBackground: Bool) {
        maker = inBackground ? Maker() : nil
    }

    /// A zero-filled buffer of `width`×`height` pixels, if one is ready (the first ask starts making it).
    func take(width: Int, height: Int) -> PixelImage? {
        guard let maker else { return PixelImage(width: width, height: height) }
        return maker.take(Size(width: width, height: height))
    }

    /// Bytes made and not taken yet (for tests).
    var readyBytes: Int { maker?.readyBytes ?? 0 }

    private struct Size: Equatable, Sendable {
        let width, height: Int
    }

    /// The thread and what it shares with the renderer (the thread holds this, not the renderer).
    /// One size at a time: the grid is the only subtree kept, and a new size is a resize, after which
    /// a buffer of the old one would only be held (a screenful, until the next resize).
    private final class Maker: Sendable {
        /// The size last asked for and not made yet; a buffer made for it, not taken yet; whether the thread ends.
        private let state = Locked<(asked: Size?, ready: PixelImage?, stopped: Bool)>((nil, nil, false))

        init() {
            Worker.start(named: "photozoom-buffers", priority: CopyBuffers.threadPriority) { [self] in run() }
        }

        func take(_ size: Size) -> PixelImage? {
            state.withLockWakingWaiters { s in
                // Taken, or made for a size the window has left: either way it is no longer held here.
                let buffer = s.ready
                s.ready = nil
                if let buffer, buffer.width == size.width, buffer.height == size.height { return buffer }
                s.asked = size
                return nil
            }
        }

        var readyBytes: Int { state.withLock { s in s.ready.map { $0.stride * $0.height } ?? 0 } }

        /// Ends the thread once its buffer in the making is made.
        func stop() { state.withLockWakingWaiters { $0.stopped = true } }

        private func run() {
            while let size = state.wait(until: { $0.stopped || $0.asked != nil }, then: { $0.stopped ? nil : $0.asked }) {
                let buffer = PixelImage(width: size.width, height: size.height)   // writes every page
                state.withLock { s in
                    // Another size asked for meanwhile: this one is dropped, and that one made next.
                    if s.asked == size {
                        s.asked = nil
                        s.ready = buffer
                    }
                }
            }
        }
    }

    deinit { maker?.stop() }
}
