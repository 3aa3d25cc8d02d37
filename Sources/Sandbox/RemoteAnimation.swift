import Glibc
import Imaging
import Pixels

/// An animation's frames decoded in a decoder process of its own (not one of the pool's: it keeps the file
/// and its canvas between frames, for as long as the animation plays). The process ends with it.
// Unchecked: its frames are asked for by one thread at a time (the animation stream's), over one decoder's socket.
final class RemoteAnimation: AnimationFrames, @unchecked Sendable {
    private let worker: DecoderWorker
    private let format: ImageFormat?
    private let colourProfile: [UInt8]
    private let seconds: Int
    private(set) var loopCount: Int
    /// Its process was ended (and waited for) by a failed exchange.
    private var ended = false

    private init(worker: DecoderWorker, format: ImageFormat?, colourProfile: [UInt8], seconds: Int, loopCount: Int) {
        (self.worker, self.format, self.colourProfile, self.seconds, self.loopCount) = (worker, format, colourProfile, seconds, loopCount)
    }

    deinit { if !ended { _ = worker.stop() } }

    /// One request and its answer; a failure leaves the process ended.
    private func exchange(_ request: DecoderRequest) throws(ImageDecodeError) -> (DecoderReply, Int32) {
        guard !ended else { throw .unreadable("its decoder has ended") }
        do throws(ImageDecodeError) {
            return try DecoderPool.exchange(request, file: -1, with: worker, seconds: seconds, format: format)
        } catch {
            ended = true
            throw error
        }
    }

    /// The frames of the file open at `fd`, in a new decoder; nil when the file is a still picture.
    static func open(fd: Int32, format: ImageFormat?, movie: EmbeddedMovie?, colour: ColourTarget, spawner: DecoderSpawner,
                     seconds: Int) throws(ImageDecodeError) -> RemoteAnimation? {
        let worker = try DecoderPool.startPlayer(spawner, libraries: format.map { $0.opensLibraryOnDemand ? [$0.library] : [] } ?? LibrariesAhead.all,
                                                 format: format?.name ?? "image", for: "its frames", seconds: seconds)
        let request = DecoderRequest(kind: .openAnimation, colourProfile: .init(colour.iccProfile), cpuSeconds: seconds, movie: movie)
        let (reply, memory) = try DecoderPool.exchange(request, file: fd, with: worker, seconds: seconds, format: format)
        if memory >= 0 { close(memory) }
        if let error = reply.error { _ = worker.stop(); throw error }
        guard let loopCount = reply.loopCount else {
            _ = worker.stop()
            return nil
        }
        return RemoteAnimation(worker: worker, format: format, colourProfile: colour.iccProfile, seconds: seconds, loopCount: loopCount)
    }

    func nextFrame(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> AnimatedImage.Frame? {
        var request = DecoderRequest(kind: .nextFrame, colourProfile: .init(colourProfile), cpuSeconds: seconds)
        (request.atLeastWidth, request.atLeastHeight) = (covering?.width, covering?.height)
        let (reply, memory) = try exchange(request)
        defer { if memory >= 0 { close(memory) } }
        if let plays = reply.loopCount { loopCount = plays }
        guard reply.picture != nil || reply.error != nil else { return nil }
        let decoded = try DecoderPool.decoded(reply, memory: memory)
        return AnimatedImage.Frame(image: decoded.image, duration: reply.duration ?? AnimatedImage.defaultDelay, time: reply.frameTime ?? 0)
    }

    func rewind() throws(ImageDecodeError) {
        let (reply, memory) = try exchange(DecoderRequest(kind: .rewind, cpuSeconds: seconds))
        if memory >= 0 { close(memory) }
        if let error = reply.error { throw error }
    }

    func seek(to time: Double) throws(ImageDecodeError) {
        let (reply, memory) = try exchange(DecoderRequest(kind: .seek, cpuSeconds: seconds, seekTo: time))
        if memory >= 0 { close(memory) }
        if let error = reply.error { throw error }
    }
}
