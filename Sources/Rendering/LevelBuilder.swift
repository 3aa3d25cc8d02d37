import Cairo
import Foundation
import Imaging
import Pixels
import Threads

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
    // Unchecked: a weak reference (Swift 6 has no Sendable weak var) to an image, which is Sendable.
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

    /// The levels asked for, made in order on the builder's worker.
    private let jobs: Mailbox<Job>
    /// The levels made and not taken yet.
    private let made: Locked<[Made]>

    init(wake: @escaping @Sendable () -> Void, threadPriority: ThreadPriority = LevelBuilder.threadPriority) {
        let made = Locked<[Made]>([])
        self.made = made
        jobs = Mailbox(named: "photozoom-levels", priority: threadPriority) { job in
            let image = Result { () throws(CairoError) in try ScaledImageCache.makeLevel(job.level, of: job.original) }
            made.withLock { $0.append(Made(key: job.key, original: job.original, level: job.level, image: image)) }
            wake()
        }
    }

    func request(_ job: Job) { jobs.send(job) }

    /// Whether nothing is queued or under way, and no made level waits to be taken.
    var isIdle: Bool { jobs.isIdle && made.withLock { $0.isEmpty } }

    func takeMade() -> [Made] {
        made.withLock { made in
            defer { made.removeAll() }
            return made
        }
    }
}
