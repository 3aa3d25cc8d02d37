import Glibc
import Imaging

/// A clip's sound decoded in a decoder process of its own (beside its pictures' own), for as long as it plays. The
/// process ends with it.
// Unchecked: its pieces are asked for by one thread at a time (the sound's player), over one decoder's socket.
final class RemoteSound: SoundSource, @unchecked Sendable {
    private let worker: DecoderWorker
    private let format: ImageFormat?
    private let seconds: Int
    /// Its process was ended (and waited for) by a failed exchange.
    private var ended = false

    private init(worker: DecoderWorker, format: ImageFormat?, seconds: Int) {
        (self.worker, self.format, self.seconds) = (worker, format, seconds)
    }

    deinit { if !ended { _ = worker.stop() } }

    /// The sound of the clip open at `fd`, in a new decoder; nil when it has none.
    static func open(fd: Int32, format: ImageFormat?, movie: EmbeddedMovie?, spawner: DecoderSpawner,
                     seconds: Int) throws(ImageDecodeError) -> RemoteSound? {
        let worker = try DecoderPool.startPlayer(spawner, libraries: format.map { [$0.library] } ?? LibrariesAhead.all,
                                                 format: format?.name ?? "clip", for: "its sound", seconds: seconds)
        let (reply, memory) = try DecoderPool.exchange(DecoderRequest(kind: .openSound, cpuSeconds: seconds, movie: movie), file: fd, with: worker,
                                                       seconds: seconds, format: format)
        if memory >= 0 { close(memory) }
        if let error = reply.error { _ = worker.stop(); throw error }
        guard reply.hasSound == true else {
            _ = worker.stop()
            return nil
        }
        return RemoteSound(worker: worker, format: format, seconds: seconds)
    }

    func nextPiece(atLeast wanted: Double) throws(ImageDecodeError) -> SoundPiece? {
        guard !ended else { throw .unreadable("its decoder has ended") }
        let reply: DecoderReply, memory: Int32
        do throws(ImageDecodeError) {
            (reply, memory) = try DecoderPool.exchange(DecoderRequest(kind: .nextSound, cpuSeconds: seconds, soundSeconds: wanted),
                                                       file: -1, with: worker, seconds: seconds, format: format)
        } catch {
            ended = true
            throw error
        }
        defer { if memory >= 0 { close(memory) } }
        if let error = reply.error { throw error }
        guard let start = reply.soundStart, let frames = reply.soundFrames else { return nil }
        return SoundPiece(samples: try Self.samples(frames * SoundPiece.channels, from: memory), seconds: start)
    }

    func seek(to time: Double) throws(ImageDecodeError) {
        guard !ended else { throw .unreadable("its decoder has ended") }
        let reply: DecoderReply, memory: Int32
        do throws(ImageDecodeError) {
            (reply, memory) = try DecoderPool.exchange(DecoderRequest(kind: .seek, cpuSeconds: seconds, seekTo: time), file: -1,
                                                       with: worker, seconds: seconds, format: format)
        } catch {
            ended = true
            throw error
        }
        if memory >= 0 { close(memory) }
        if let error = reply.error { throw error }
    }

    /// `count` samples read from the sealed memory file `memory`.
    private static func samples(_ count: Int, from memory: Int32) throws(ImageDecodeError) -> [Int16] {
        var info = stat()
        guard count >= 0, memory >= 0, fstat(memory, &info) == 0, Int(info.st_size) >= count * 2 else {
            throw .unreadable("the decoder's sound could not be read")
        }
        let samples = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            let got = pread(memory, buffer.baseAddress, count * 2, 0)
            initialized = got == count * 2 ? count : 0
        }
        guard samples.count == count else { throw .unreadable("the decoder's sound could not be read") }
        return samples
    }
}

extension DecoderPool {
    /// A decoder process of a player's own (an animation's frames, a clip's sound) with `libraries` opened, once it
    /// said it is ready at its niceness 0 (its work is due at set times); thrown: it could not start, or it died.
    static func startPlayer(_ spawner: DecoderSpawner, libraries: Set<String>, format: String, for what: String,
                            seconds: Int) throws(ImageDecodeError) -> DecoderWorker {
        guard let worker = spawner.spawn(niceness: 0, libraries: libraries) else {
            throw .unreadable("no decoder process could be started for \(what)")
        }
        guard let ready = firstMessage(of: worker, seconds: seconds) else {
            throw .decoderCrashed(format: format, signal: worker.stop())
        }
        if let error = ready.error {
            _ = worker.stop()
            throw error
        }
        return worker
    }
}
