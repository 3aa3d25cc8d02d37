import Foundation
import Imaging
import Pixels
import SystemPackage
import Threads

/// The one queue that decodes pictures away from the frame loop, for the grid and the viewer
/// together: the open photo first, then its neighbours, the cells in view, and prefetching. A
/// request for the same picture at the same size joins the one already waiting (taking the higher
/// priority), and a withdrawn request that has not started is dropped. The worker threads run at a
/// lowered CPU priority, and `concurrencyLimit` lets fewer of them start work while something moves,
/// so that on a 2-core machine a frame keeps a core. Results wait until their owner takes them;
/// `wake` tells the frame loop that some arrived.
///
/// A thumbnail is first looked for where it costs no decode (the thumbnail cache, then the photo's
/// embedded EXIF thumbnail as a placeholder), for every waiting thumbnail of a priority before any
/// of them is decoded: the grid fills with something at once, and sharpens as the decodes arrive.
public final class DecodeQueue: Sendable {
    public enum Priority: Int, Comparable, Sendable {
        case openPhoto, neighbour, visible, prefetch
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Who asked: each takes only its own results.
    public enum Purpose: Hashable, Sendable { case thumbnail, photo }

    public struct Result: Sendable {
        public let purpose: Purpose
        public let index: Int
        /// The size asked for (upright px).
        public let covering: PixelSize
        public let outcome: Swift.Result<PixelImage, ImageDecodeError>
        /// The photo's full upright size, px (the image may be a reduced decode of it).
        public let fullSize: PixelSize?
        /// A stand-in (the embedded EXIF thumbnail) to show until the result proper arrives.
        public let isPlaceholder: Bool
        /// What was wrong with a file that still gave a picture (a truncated JPEG).
        public var problem: String? = nil
        /// Drawn from shapes: a larger decode is sharper, whatever its full size.
        public var isScalable = false
        /// The file's format, when its frames play (the image is its first): the grid's badge.
        public var movingFormat: ImageFormat?
        /// A clip's facts (the image is its poster): the grid's badge gives its duration.
        public var clip: ClipFacts?
        /// A Motion Photo's movie: the grid's badge says "LIVE".
        public var motion: EmbeddedMovie?
    }

    /// What a look at a thumbnail finds before any decode.
    public enum Peek: Sendable {
        /// The thumbnail itself (from the cache): no decode needed; and the photo's format, if it moves.
        case thumbnail(DecodedImage, moving: ImageFormat?)
        /// Something to show until the thumbnail is decoded.
        case placeholder(PixelImage)
        /// The file failed when last tried and has not changed since: no decode.
        case failed(ImageDecodeError)
    }

    /// Looks for photo `path`'s thumbnail covering a side, px, without decoding the photo; `movement`: whether its
    /// frames play, when the library knows.
    public typealias PeekAtThumbnail = @Sendable (_ path: FilePath, _ side: Int, _ movement: Photo.Movement?) -> Peek?

    /// Decodes the file at a path, covering a size, px (nil: full size).
    public typealias Decode = @Sendable (FilePath, (width: Int, height: Int)?) throws(ImageDecodeError) -> DecodedImage

    /// Below the frame loop, not at the bottom: at nice 19 a launch beside two busy loops of the same session
    /// completed its grid in 35 s instead of 6.
    static let threadPriority = ThreadPriority.lowered(by: 10)

    private struct Job: Sendable {
        let purpose: Purpose
        let index: Int
        let path: FilePath
        let covering: PixelSize
        /// Whether the photo's frames play, when the library knows (its first bytes are read otherwise).
        let movement: Photo.Movement?
        /// Whether the thumbnail's mean colour is to be learnt (`learnt`): the library does not know it yet.
        let learnsColour: Bool
        var priority: Priority
        /// Arrival order, so that equal priorities go first come, first served.
        let order: Int
        /// Whether the cheap look (`peek`) was had; a thumbnail's comes before any decode of its priority.
        var peeked: Bool
        /// Withdrawn while it ran: not queued again after its look.
        var isWithdrawn = false
        func isSame(as other: Job) -> Bool {
            purpose == other.purpose && index == other.index && covering == other.covering
        }
    }

    /// The jobs waiting, running and finished, and how many may run at once.
    private struct Jobs: Sendable {
        var queued: [Job] = []
        var running: [Job] = []
        var finished: [Result] = []
        var arrivals = 0
        var limit: Int
        var stopped = false
    }

    private final class Shared: Sendable {
        let jobs: Locked<Jobs>
        let decode: Decode
        let decodeThumbnail: Decode
        let peek: PeekAtThumbnail
        let wake: @Sendable () -> Void
        let learnt: ThumbnailColours?

        init(limit: Int, decode: @escaping Decode, decodeThumbnail: @escaping Decode, peek: @escaping PeekAtThumbnail,
             wake: @escaping @Sendable () -> Void, learnt: ThumbnailColours?) {
            jobs = Locked(Jobs(limit: limit))
            self.decode = decode
            self.decodeThumbnail = decodeThumbnail
            self.peek = peek
            self.wake = wake
            self.learnt = learnt
        }

        /// A thumbnail of a photo whose colour the library does not know: its mean colour is kept.
        func learn(_ job: Job, _ image: PixelImage) {
            if job.learnsColour, job.purpose == .thumbnail { learnt?.add(job.path, image.meanColour) }
        }

        func work() {
            while let job = next() {
                if !job.peeked {
                    look(job)
                    continue
                }
                let outcome: Swift.Result<PixelImage, ImageDecodeError>
                var fullSize: PixelSize?
                var decoded: DecodedImage?
                do throws(ImageDecodeError) {
                    let picture = try (job.purpose == .thumbnail ? decodeThumbnail : decode)(job.path, (job.covering.width, job.covering.height))
                    learn(job, picture.image)
                    outcome = .success(picture.image)
                    fullSize = PixelSize(width: picture.fullSize.width, height: picture.fullSize.height)
                    decoded = picture
                } catch {
                    outcome = .failure(error)
                }
                jobs.withLockWakingWaiters { jobs in
                    // Forgotten while it ran (its file changed): what it made is the old file's.
                    guard let at = jobs.running.firstIndex(where: { $0.order == job.order }) else { return }
                    jobs.running.remove(at: at)
                    jobs.finished.append(Result(purpose: job.purpose, index: job.index, covering: job.covering,
                                                outcome: outcome, fullSize: fullSize, isPlaceholder: false, problem: decoded?.problem,
                                                isScalable: decoded?.isScalable ?? false,
                                                movingFormat: decoded.flatMap { $0.isAnimated ? $0.format : nil }, clip: decoded?.clip,
                                                motion: decoded?.motion))
                }
                wake()
            }
        }

        /// The cheap look: a cached thumbnail finishes the job; otherwise it waits again for its
        /// decode, with the placeholder (if any) delivered meanwhile.
        private func look(_ job: Job) {
            let found = peek(job.path, max(job.covering.width, job.covering.height), job.movement)
            if case .thumbnail(let cached, _)? = found { learn(job, cached.image) }
            jobs.withLockWakingWaiters { jobs in
                guard let at = jobs.running.firstIndex(where: { $0.order == job.order }) else { return }
                var again = jobs.running.remove(at: at)
                switch found {
                case .thumbnail(let decoded, let moving):
                    jobs.finished.append(Result(purpose: job.purpose, index: job.index, covering: job.covering,
                                           outcome: .success(decoded.image),
                                           fullSize: PixelSize(width: decoded.fullSize.width, height: decoded.fullSize.height),
                                           isPlaceholder: false, movingFormat: moving, clip: decoded.clip, motion: decoded.motion))
                case .failed(let error):
                    jobs.finished.append(Result(purpose: job.purpose, index: job.index, covering: job.covering,
                                           outcome: .failure(error), fullSize: nil, isPlaceholder: false))
                case .placeholder(let image):
                    jobs.finished.append(Result(purpose: job.purpose, index: job.index, covering: job.covering,
                                           outcome: .success(image), fullSize: nil, isPlaceholder: true))
                    fallthrough
                case nil:
                    again.peeked = true
                    if !again.isWithdrawn { jobs.queued.append(again) }
                }
            }
            if found != nil { wake() }
        }

        /// The most wanted job, once fewer than `limit` run; nil when stopped.
        private func next() -> Job? {
            jobs.wait(until: { $0.stopped || !$0.queued.isEmpty && $0.running.count < $0.limit }) { jobs in
                let queued = jobs.queued
                guard !jobs.stopped, let best = queued.indices.min(by: {
                    (queued[$0].priority, queued[$0].peeked ? 1 : 0, queued[$0].order)
                        < (queued[$1].priority, queued[$1].peeked ? 1 : 0, queued[$1].order)
                }) else { return nil }
                let job = jobs.queued.remove(at: best)
                jobs.running.append(job)
                return job
            }
        }
    }

    private let shared: Shared
    public let threadCount: Int
    /// The colours pictures are decoded into (the display's).
    public let colour: ColourTarget

    /// `threads` workers (one a core by default); `decode` reads a file (by default in `colour`'s space;
    /// tests pass a memoizing one); grid thumbnails come through `thumbnails`, the freedesktop cache,
    /// when there is one, and `placeholders` shows embedded EXIF thumbnails until they are decoded; `learnt` keeps
    /// the mean colours of the thumbnails asked to learn it.
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                colour: ColourTarget = .sRGB,
                decode given: Decode? = nil,
                thumbnails: ThumbnailCache? = nil,
                placeholders: Bool = true,
                learnt: ThumbnailColours? = nil,
                wake: @escaping @Sendable () -> Void = {}) {
        threadCount = max(1, threads)
        self.colour = colour
        let fromFile: Decode = { path, size throws(ImageDecodeError) in try ImageDecoder.decode(file: path, atLeast: size, colour: colour) }
        let decode: Decode
        if let given { decode = given } else { decode = fromFile }
        var decodeThumbnail = decode
        if let cache = thumbnails {
            decodeThumbnail = { path, size throws(ImageDecodeError) -> DecodedImage in
                try cache.make(path: path, covering: max(size?.width ?? 0, size?.height ?? 0))
            }
        }
        let peek: PeekAtThumbnail = { path, side, movement in
            // The cache's PNG says nothing of whether the photo moves: the index does, else its first bytes.
            // A clip's entry written without its length (by another program) is made again, with it: its badge needs it.
            if let cached = thumbnails?.lookup(path: path, covering: side), cached.clip != nil || !ImageFormat.mayBeClip(path) {
                return .thumbnail(cached, moving: movement.map(\.format) ?? AnimationProbe.animatedFormat(path))
            }
            if let failure = thumbnails?.recordedFailure(path: path) { return .failed(failure) }
            return placeholders ? EmbeddedThumbnail.read(path: path, colour: colour).map(Peek.placeholder) : nil
        }
        let shared = Shared(limit: threadCount, decode: decode, decodeThumbnail: decodeThumbnail, peek: peek, wake: wake, learnt: learnt)
        self.shared = shared
        for i in 0..<threadCount {
            Worker.start(named: "photozoom-decode-\(i)", priority: DecodeQueue.threadPriority) { shared.work() }
        }
    }

    deinit {
        shared.jobs.withLockWakingWaiters {
            $0.stopped = true
            $0.queued.removeAll()
        }
    }

    /// How many decodes may run at once (at least 1): fewer while something moves.
    public var concurrencyLimit: Int {
        get { shared.jobs.withLock { $0.limit } }
        set {
            // Set on every frame (here alone): only a change wakes the workers.
            let limit = min(max(1, newValue), threadCount)
            guard limit != concurrencyLimit else { return }
            shared.jobs.withLockWakingWaiters { $0.limit = limit }
        }
    }

    /// Asks for photo `index` (the file at `path`) decoded to cover `covering` px, upright.
    public func request(_ purpose: Purpose, index: Int, path: FilePath, covering: PixelSize, priority: Priority,
                        movement: Photo.Movement? = nil, learnsColour: Bool = false) {
        shared.jobs.withLockWakingWaiters { jobs in
            jobs.arrivals += 1
            let job = Job(purpose: purpose, index: index, path: path, covering: covering, movement: movement, learnsColour: learnsColour,
                          priority: priority, order: jobs.arrivals, peeked: purpose == .photo)
            if let running = jobs.running.firstIndex(where: { $0.isSame(as: job) }) {
                jobs.running[running].priority = min(jobs.running[running].priority, priority)
                jobs.running[running].isWithdrawn = false
                return
            }
            if let waiting = jobs.queued.firstIndex(where: { $0.isSame(as: job) }) {
                jobs.queued[waiting].priority = min(jobs.queued[waiting].priority, priority)
                return
            }
            jobs.queued.append(job)
        }
    }

    /// Starts decoding the frames of the animated photo at `path` ahead, to cover `covering` px, in
    /// this queue's colours; the loop is woken as they arrive.
    /// `movie`: the one inside the file (a Motion Photo's).
    public func animationStream(path: FilePath, movie: EmbeddedMovie? = nil, covering: PixelSize) -> AnimationStream {
        AnimationStream(path: path, movie: movie, covering: covering, colour: colour, wake: shared.wake)
    }

    /// Drops the waiting requests of `purpose` for photo `index` (a decode under way still delivers).
    public func withdraw(_ purpose: Purpose, index: Int) {
        shared.jobs.withLockWakingWaiters { jobs in
            jobs.queued.removeAll { $0.purpose == purpose && $0.index == index }
            for i in jobs.running.indices where jobs.running[i].purpose == purpose && jobs.running[i].index == index {
                jobs.running[i].isWithdrawn = true
            }
        }
    }

    /// Photo `index`'s file changed: every request for it is dropped, and what a decode under way makes
    /// of the old file is never delivered (nor any result not yet taken). Ask again for the new file.
    public func forget(index: Int) {
        shared.jobs.withLockWakingWaiters { jobs in
            jobs.queued.removeAll { $0.index == index }
            jobs.running.removeAll { $0.index == index }
            jobs.finished.removeAll { $0.index == index }
        }
    }

    /// The results for `purpose` that arrived since the last call, in arrival order.
    public func takeFinished(_ purpose: Purpose) -> [Result] {
        shared.jobs.withLock { jobs in
            let mine = jobs.finished.filter { $0.purpose == purpose }
            jobs.finished.removeAll { $0.purpose == purpose }
            return mine
        }
    }

    /// Whether nothing of `purpose` waits, runs, or waits to be taken.
    public func isIdle(_ purpose: Purpose) -> Bool {
        shared.jobs.withLock { jobs in
            !jobs.queued.contains { $0.purpose == purpose } && !jobs.running.contains { $0.purpose == purpose }
                && !jobs.finished.contains { $0.purpose == purpose }
        }
    }

    /// Whether a request of `purpose` for photo `index` waits or runs.
    public func isPending(_ purpose: Purpose, index: Int) -> Bool {
        shared.jobs.withLock { jobs in
            (jobs.queued + jobs.running).contains { $0.purpose == purpose && $0.index == index }
        }
    }

    /// Blocks until nothing waits or runs (headless runs and tests).
    public func waitUntilIdle() {
        shared.jobs.wait(until: { $0.queued.isEmpty && $0.running.isEmpty }) { _ in }
    }
}


/// A size in pixels, as the queue's requests give it (Imaging's, for the runs that do not read images).
public typealias PixelSize = Imaging.PixelSize
