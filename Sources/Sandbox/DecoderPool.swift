import CMemoryFile
import Foundation
import Glibc
import Imaging
import Logging
import Pixels
import SystemPackage
import Threads

/// The viewer's side of the sandbox: decoder processes, one a core, started ahead and reused, that every
/// decode of a file's bytes is sent to (`ImageDecoder.route(through:)`). They start with the program's own
/// libraries only; a format whose library opens on demand (libheif for HEIC and AVIF, libjxl, librsvg) is sent to
/// a decoder that opened it, which takes the place of one that had not the first time such a file is met. A request carries the file as an
/// open descriptor; the answer is a sealed memory file the viewer maps. A decoder that crashes or runs
/// past its time costs that one picture (an error naming why) and is replaced. If decoders cannot be
/// started or confined here, the pool says so once and decodes in this process instead, as glycin falls
/// back.
public final class DecoderPool: PictureDecoding, Sendable {
    /// How long a decode of a screenful may take, s, before its decoder is stopped; more for more pixels.
    public static let baseSeconds = 10
    /// The pool's decoders step back from the frame loop as the decode threads did (nice 10): on two cores a
    /// frame keeps one. An animation's decoder does not: its frames are due at set times.
    static let niceness: Int32 = 10
    /// Starts in a row that failed before the pool gives up on decoder processes.
    static let maxFailedStarts = 3

    public let size: Int
    private let spawner: DecoderSpawner
    private let logger: Logger?
    private let baseSeconds: Int
    /// The decoders: idle ones, and every one's pid; starts that failed in a row; whether decodes run here from now
    /// on; the libraries opened on demand whose formats were met (decoders started from now on open them).
    private struct Decoders {
        var idle: [DecoderWorker] = []
        var all: Set<pid_t> = []
        var failedStarts = 0
        var inProcess = false
        var librariesMet: Set<String> = []

        /// From now on, decodes run here.
        mutating func giveUp(_ reason: String, logger: Logger?) {
            guard !inProcess else { return }
            inProcess = true
            logger?.warning("the decoder sandbox is off: \(reason); decoding in the viewer's own process")
        }
    }
    private let decoders = Locked(Decoders())

    /// Starts `size` decoders of `executable` (this program; its `--decoder-process` mode). `baseSeconds`
    /// can be shortened by tests (`PHOTOZOOM_DECODE_SECONDS`).
    public init(executable: String, size: Int = ProcessInfo.processInfo.activeProcessorCount, logger: Logger? = nil,
                baseSeconds: Int = DecoderPool.baseSeconds) {
        self.size = max(1, size)
        self.logger = logger
        self.baseSeconds = baseSeconds
        spawner = DecoderSpawner(executable: executable)
        for _ in 0..<self.size { replace(nil) }
    }

    deinit {
        for worker in decoders.withLock({ $0.idle }) { _ = worker.stop() }
    }

    /// The decoders' process ids now (tests find them under the viewer too).
    public var processIDs: Set<pid_t> { decoders.withLock { $0.all } }

    /// Whether the pool has given up on decoder processes and decodes here.
    public var decodesInProcess: Bool { decoders.withLock { $0.inProcess } }

    public func decode(file: FilePath, atLeast: (width: Int, height: Int)?, colour: ColourTarget) throws(ImageDecodeError) -> DecodedImage {
        let fd = try PhotoFile.open(file)
        defer { close(fd) }
        var request = DecoderRequest(kind: .picture, colourProfile: Data(colour.iccProfile))
        (request.atLeastWidth, request.atLeastHeight) = (atLeast?.width, atLeast?.height)
        return try perform(request, file: fd, format: Self.sniff(fd)) { () throws(ImageDecodeError) in
            try ImageDecoder.decodeHere(fd: fd, atLeast: atLeast, colour: colour)
        }
    }

    public func decode(data: [UInt8], atLeast: (width: Int, height: Int)?, colour: ColourTarget) throws(ImageDecodeError) -> DecodedImage {
        guard !data.isEmpty else { throw .empty }
        guard let fd = Self.sealedMemoryFile(data) else { return try ImageDecoder.decodeHere(data: data, atLeast: atLeast, colour: colour) }
        defer { close(fd) }
        var request = DecoderRequest(kind: .picture, colourProfile: Data(colour.iccProfile))
        (request.atLeastWidth, request.atLeastHeight) = (atLeast?.width, atLeast?.height)
        return try perform(request, file: fd, format: ImageFormat(sniffing: data)) { () throws(ImageDecodeError) in
            try ImageDecoder.decodeHere(data: data, atLeast: atLeast, colour: colour)
        }
    }

    public func embeddedThumbnail(file: FilePath, colour: ColourTarget) -> PixelImage? {
        guard let fd = try? PhotoFile.open(file) else { return nil }
        defer { close(fd) }
        let request = DecoderRequest(kind: .embeddedThumbnail, colourProfile: Data(colour.iccProfile), cpuSeconds: 5)
        let format = Self.sniff(fd)
        return try? perform(request, file: fd, format: format) { () throws(ImageDecodeError) in
            guard let image = EmbeddedThumbnail.read(fd: fd, colour: colour) else { throw .empty }
            return DecodedImage(image: image, fullSize: (image.width, image.height), format: format ?? .jpeg)
        }.image
    }

    public func openAnimation(file: FilePath, colour: ColourTarget, movie: EmbeddedMovie?) throws(ImageDecodeError) -> (any AnimationFrames)? {
        let fd = try PhotoFile.open(file)
        defer { close(fd) }
        if decodesInProcess { return try AnimatedImage.open(fd: fd, colour: colour, movie: movie) }
        return try RemoteAnimation.open(fd: fd, format: Self.sniff(fd, movie: movie), movie: movie, colour: colour, spawner: spawner,
                                        seconds: baseSeconds)
    }

    public func openSound(file: FilePath, movie: EmbeddedMovie?) throws(ImageDecodeError) -> (any SoundSource)? {
        let fd = try PhotoFile.open(file)
        defer { close(fd) }
        if decodesInProcess { return try ClipSound(fd: fd, movie: movie) }
        return try RemoteSound.open(fd: fd, format: Self.sniff(fd, movie: movie), movie: movie, spawner: spawner, seconds: baseSeconds)
    }

    /// A test build's check of the confinement: the decoder tries `attempt` ("open", "socket", "exec").
    public func tryEscape(_ attempt: String) -> ImageDecodeError? {
        do throws(ImageDecodeError) {
            _ = try perform(DecoderRequest(kind: .escape, attempt: attempt), file: -1, format: nil) { () throws(ImageDecodeError) in
                throw .unreadable("decoded in process")
            }
            return nil
        } catch {
            return error
        }
    }

    /// Sends `request` (with `file`) to an idle decoder and waits for its answer, within its time; `here`
    /// when the pool decodes in this process.
    private func perform(_ request: DecoderRequest, file: Int32, format: ImageFormat?,
                         here: () throws(ImageDecodeError) -> DecodedImage) throws(ImageDecodeError) -> DecodedImage {
        var request = request
        let seconds = timeLimit(for: request)
        request.cpuSeconds = min(request.cpuSeconds, seconds)
        guard var worker = checkOut() else { return try here() }
        while true {
            if let format, format.opensLibraryOnDemand, !worker.libraries.contains(format.library) {
                guard let heavier = replace(worker, adding: format.library) else { return try here() }
                worker = heavier
            }
            if worker.isReady { break }
            // One that did not start in time is replaced by another idle decoder, which may lack the library: the
            // check again (a JPEG XL once went to a decoder without libjxl, which could not open it once confined).
            guard let ready = awaitReady(worker) else { return try here() }
            worker = ready
        }
        let answer: (DecoderReply, Int32)
        do throws(ImageDecodeError) {
            answer = try Self.exchange(request, file: file, with: worker, seconds: seconds, format: format)
        } catch {
            replace(worker)
            throw error
        }
        checkIn(worker)
        defer { if answer.1 >= 0 { close(answer.1) } }
        return try Self.decoded(answer.0, memory: answer.1)
    }

    /// Sends `request` and waits up to `seconds` for the answer (the caller closes its descriptor). A
    /// decoder that is gone (crashed) or too slow (stopped) is ended and waited for, and the error says why.
    static func exchange(_ request: DecoderRequest, file: Int32, with worker: DecoderWorker, seconds: Int,
                         format: ImageFormat?) throws(ImageDecodeError) -> (DecoderReply, Int32) {
        guard DecoderChannel.send(request, on: worker.socket, descriptor: file) else {
            throw .decoderCrashed(format: format?.name ?? "image", signal: worker.stop())
        }
        guard case .readable = wait(for: worker, seconds: seconds) else {
            _ = worker.stop()
            throw .decoderTimedOut(seconds: seconds)
        }
        guard let answer = DecoderChannel.receive(DecoderReply.self, on: worker.socket) else {
            throw .decoderCrashed(format: format?.name ?? "image", signal: worker.stop())
        }
        return answer
    }

    /// The picture a reply describes, from its memory file; its error otherwise.
    static func decoded(_ reply: DecoderReply, memory: Int32) throws(ImageDecodeError) -> DecodedImage {
        if let error = reply.error { throw error }
        guard let picture = reply.picture else { throw .empty }
        guard let format = ImageFormat.all.first(where: { $0.name == picture.format }), memory >= 0,
              let image = PixelImage(mapping: memory, width: picture.width, height: picture.height, stride: picture.stride,
                                     isOpaque: picture.isOpaque) else {
            throw .unreadable("the decoder's answer could not be read")
        }
        var decoded = DecodedImage(image: image, fullSize: (picture.fullWidth, picture.fullHeight), format: format, problem: picture.problem,
                                   isAnimated: picture.isAnimated, clip: picture.clip)
        decoded.motion = picture.motion
        return decoded
    }

    /// The wall and processor time a request may take: the base for a screenful (or less), a second more
    /// for each further 2 megapixels asked, and three times the base for a whole picture.
    func timeLimit(for request: DecoderRequest) -> Int {
        guard let (w, h) = request.atLeast else { return baseSeconds * 3 }
        return baseSeconds + max(0, min(w * h, 250_000_000) - 2_000_000) / 2_000_000
    }
}

extension DecoderPool {
    /// An idle decoder, waiting for one while all are busy; nil when the pool decodes in this process. Idle ones that
    /// died meanwhile (the OOM killer, a person's `kill`) are replaced first: the last one used is taken first (its
    /// heap is warm), so a dead one at the back could otherwise wait long for a request to find it.
    private func checkOut() -> DecoderWorker? {
        let dead = decoders.withLock { state in
            let gone = state.idle.filter(\.hasHungUp)
            state.idle.removeAll { worker in gone.contains { $0.pid == worker.pid } }
            return gone
        }
        for worker in dead {
            _ = worker.reap()
            replace(worker)
        }
        return decoders.wait(until: { $0.inProcess || !$0.idle.isEmpty }) { $0.inProcess ? nil : $0.idle.removeLast() }
    }

    private func checkIn(_ worker: DecoderWorker) {
        decoders.withLockWakingWaiters { $0.idle.append(worker) }
    }

    /// A decoder that opened `library` too, and every library met so far, in place of `light` (checked out: the
    /// caller's to use); nil when none could be started, and the pool decodes here from now on.
    private func replace(_ light: DecoderWorker, adding library: String) -> DecoderWorker? {
        _ = light.stop()
        let libraries = decoders.withLock {
            $0.librariesMet.insert(library)
            return $0.librariesMet.union(light.libraries)
        }
        let worker = spawner.spawn(niceness: Self.niceness, libraries: libraries)
        decoders.withLockWakingWaiters {
            $0.all.remove(light.pid)
            if let worker { $0.all.insert(worker.pid) } else { $0.giveUp("no decoder process could be started", logger: logger) }
        }
        return worker
    }

    /// Files of `formats` are about to come (a library's first screen names them): idle decoders without their
    /// libraries are started again with them now, while the window opens, so that the first such photo does not
    /// wait for a decoder to start (a HEIC's, with libheif and FFmpeg's libavcodec: about 100 ms).
    public func expect(_ formats: Set<ImageFormat>) {
        let needed = Set(formats.filter(\.opensLibraryOnDemand).map(\.library))
        let lacking = decoders.withLock { state -> [DecoderWorker] in
            guard !state.inProcess, !needed.isSubset(of: state.librariesMet) else { return [] }
            state.librariesMet.formUnion(needed)
            let lacking = state.idle.filter { !state.librariesMet.isSubset(of: $0.libraries) }
            state.idle.removeAll { worker in lacking.contains { $0.pid == worker.pid } }
            return lacking
        }
        for worker in lacking {
            _ = worker.stop()
            replace(worker)
        }
    }

    /// Starts a decoder in place of `gone` (nil: one more), so that the pool stays full.
    private func replace(_ gone: DecoderWorker?) {
        let worker = spawner.spawn(niceness: Self.niceness, libraries: decoders.withLock { $0.librariesMet })
        decoders.withLockWakingWaiters {
            if let gone { $0.all.remove(gone.pid) }
            if let worker {
                $0.all.insert(worker.pid)
                $0.idle.append(worker)
            } else {
                $0.giveUp("no decoder process could be started", logger: logger)
            }
        }
    }

    /// Reads a new decoder's first message; nil (the pool decoding here from now on) when it could not
    /// confine itself, or when starts keep failing.
    private func awaitReady(_ worker: DecoderWorker) -> DecoderWorker? {
        var ready = worker
        ready.isReady = true
        if let reply = Self.firstMessage(of: worker, seconds: baseSeconds) {
            guard let error = reply.error else {
                decoders.withLock { $0.failedStarts = 0 }
                return ready
            }
            _ = worker.stop()
            decoders.withLockWakingWaiters {
                $0.all.remove(worker.pid)
                $0.giveUp(error.description, logger: logger)
            }
            return nil
        }
        let signal = worker.stop()
        let again = decoders.withLockWakingWaiters {
            $0.failedStarts += 1
            if $0.failedStarts >= Self.maxFailedStarts {
                $0.giveUp("decoder processes keep dying as they start (signal \(signal))", logger: logger)
            }
            return !$0.inProcess
        }
        replace(worker)
        guard again, let next = checkOut() else { return nil }
        return next.isReady ? next : awaitReady(next)
    }

    /// A new decoder's first message (ready, or why it could not confine itself); nil when it died first.
    static func firstMessage(of worker: DecoderWorker, seconds: Int) -> DecoderReply? {
        guard case .readable = wait(for: worker, seconds: seconds),
              let (reply, memory) = DecoderChannel.receive(DecoderReply.self, on: worker.socket) else { return nil }
        if memory >= 0 { close(memory) }
        return reply
    }

    enum Wait { case readable, timedOut }

    /// Waits up to `seconds` for the decoder's socket to have something (an answer, or its end).
    static func wait(for worker: DecoderWorker, seconds: Int) -> Wait {
        var entry = pollfd(fd: worker.socket, events: Int16(POLLIN), revents: 0)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += seconds
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = (deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1_000_000
            guard left > 0 else { return .timedOut }
            let ready = poll(&entry, 1, Int32(left))
            if ready > 0 { return .readable }
            if ready < 0 && errno != EINTR { return .readable }   // the receive says what went wrong
        }
    }

    /// The format a file's first bytes say, for naming its decoder in a crash's line.
    static func sniff(_ fd: Int32, movie: EmbeddedMovie? = nil) -> ImageFormat? {
        var head = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(movie?.offset ?? 0)) }
        return count > 0 ? ImageFormat(sniffing: head[..<count]) : nil
    }

    /// `data` in a memory file no one can write any more; nil when the kernel refuses one.
    static func sealedMemoryFile(_ data: [UInt8]) -> Int32? {
        let fd = photozoom_memory_file("photozoom-bytes")
        guard fd >= 0 else { return nil }
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        guard written == data.count, photozoom_seal_bytes(fd) == 0 else {
            close(fd)
            return nil
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }
}
