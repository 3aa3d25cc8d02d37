import Cairo
import Foundation
import Imaging
import Locks
import Pixels

/// Makes pre-scaled levels on a thread of its own, at a lowered priority, so that a frame never
/// waits for a filter pass over a large photo. Finished levels wait until the renderer takes them;
/// `wake` tells the frame loop that some arrived. The thread ends with the builder.
final class LevelBuilder: Sendable {
    struct Job: Sendable {
        let key: ObjectIdentifier
        let original: PixelImage
        let level: LevelKey
    }

    /// A level made for `original` (held weakly: a photo let go meanwhile is not kept alive).
    struct Made: @unchecked Sendable {
        let key: ObjectIdentifier
        weak var original: PixelImage?
        let level: LevelKey
        /// The copy, or why Cairo could not make it.
        let image: Result<PixelImage, CairoError>
    }

    /// Below the frame loop and the decoders. Halvings are made while the photo they are for flies and is
    /// pinched: at nice 10 they kept the X server (or Xwayland and the compositor) that puts frames up off the
    /// cores: a walk through sway's Xwayland at 144 Hz missed 0.6–6.8 % of its refreshes (0.2–0.9 % at 19).
    /// Exact copies only save later frames some work: they are made when nothing else wants a CPU.
    static let threadPriority = ThreadPriority.lowered(by: 19)
    static let backgroundThreadPriority = ThreadPriority.idle

    /// What the thread shares with the builder (the thread holds this, not the builder).
    private final class Shared: Sendable {
        let state = Locked<(jobs: [Job], made: [Made], busy: Bool, stopped: Bool)>(([], [], false, false))
        let wake: @Sendable () -> Void
        let threadPriority: ThreadPriority
        init(wake: @escaping @Sendable () -> Void, threadPriority: ThreadPriority) {
            self.wake = wake
            self.threadPriority = threadPriority
        }

        func run() {
            threadPriority.applyToCurrentThread()
            while let job = state.wait(until: { $0.stopped || !$0.jobs.isEmpty }, then: { s -> Job? in
                guard !s.stopped else { return nil }
                s.busy = true
                return s.jobs.removeFirst()
            }) {
                let image = Result { () throws(CairoError) in try ScaledImageCache.makeLevel(job.level, of: job.original) }
                state.withLock {
                    $0.made.append(Made(key: job.key, original: job.original, level: job.level, image: image))
                    $0.busy = false
                }
                wake()
            }
        }
    }

    private let shared: Shared

    init(wake: @escaping @Sendable () -> Void, threadPriority: ThreadPriority = LevelBuilder.threadPriority) {
        let shared = Shared(wake: wake, threadPriority: threadPriority)
        self.shared = shared
        let thread = Thread { shared.run() }
        thread.name = "photozoom-levels"
        thread.start()
    }

    deinit {
        shared.state.withLockWakingWaiters { $0.stopped = true; $0.jobs.removeAll() }
    }

    func request(_ job: Job) {
        shared.state.withLockWakingWaiters { $0.jobs.append(job) }
    }

    /// Whether nothing is queued or under way, and no made level waits to be taken.
    var isIdle: Bool { shared.state.withLock { $0.jobs.isEmpty && $0.made.isEmpty && !$0.busy } }

    func takeMade() -> [Made] {
        shared.state.withLock { state in
            defer { state.made.removeAll() }
            return state.made
        }
    }
}
