import Glibc
import Imaging
import SystemPackage
import Threads

/// A clip's sound, played on a thread of its own while its pictures play: decoded where clips are decoded, and
/// handed to the sound server a fiftieth of a second at a time. What is being heard is the clip's clock (the sound
/// is the master; its pictures follow it). With no sound server it says so once, and the clip plays silent.
public final class SoundPlayer: Sendable {
    /// Each write's length, s: a pause or a mute is noticed within it.
    static let pieceSeconds = 0.02
    /// Sound written and perhaps not yet heard is kept this long, s, to be written again after a pause.
    static let kept = 0.5

    private struct State: Sendable {
        var paused = false
        var muted: Bool
        var stopped = false
        /// All of it was written (and heard): it waits for a seek.
        var ended = false
        var seekTo: Double?
        /// What is being heard: the clip's time, s, at `at` (CLOCK_MONOTONIC s); nil while nothing is.
        var heard: (media: Double, at: Double)?
        /// The end of what was written, s of the clip.
        var writtenUpTo = 0.0
        /// Why there is no sound, until taken.
        var problem: String?
    }
    private let state: Locked<State>

    /// Starts playing the sound of the clip at `path` (or of the `movie` inside it), the stream named `name` on the
    /// server, muted or not.
    public init(path: FilePath, movie: EmbeddedMovie? = nil, name: String, muted: Bool) {
        let state = Locked(State(muted: muted))
        self.state = state
        Worker.start(named: "photozoom-sound") {
            Self.run(path: path, movie: movie, name: name, state: state)
        }
    }

    deinit { stop() }

    /// The clip's time being heard at `now` (CLOCK_MONOTONIC s); nil while no sound plays (not begun, paused, over,
    /// none, or no server).
    public func position(at now: Double) -> Double? {
        state.withLock { s in
            guard !s.paused, let heard = s.heard else { return nil }
            return min(heard.media + max(0, now - heard.at), s.writtenUpTo)
        }
    }

    public var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set { state.withLockWakingWaiters { $0.muted = newValue } }
    }

    public func setPaused(_ paused: Bool) { state.withLockWakingWaiters { $0.paused = paused } }

    /// To `seconds` of the clip: what the server holds is dropped, and the sound goes on from there.
    public func seek(to seconds: Double) {
        state.withLockWakingWaiters { s in
            (s.seekTo, s.heard) = (seconds, nil)
        }
    }

    /// Ends the sound at once (what the server holds is dropped).
    public func stop() { state.withLockWakingWaiters { $0.stopped = true } }

    /// Why the clip plays silent (no sound server, a damaged sound), once.
    public func takeProblem() -> String? {
        state.withLock { s in
            defer { s.problem = nil }
            return s.problem
        }
    }

    private static func run(path: FilePath, movie: EmbeddedMovie?, name: String, state: Locked<State>) {
        let source: any SoundSource, output: SoundOutput
        do throws(ImageDecodeError) {
            guard let opened = try ClipSound.open(file: path, movie: movie) else { return }
            source = opened
        } catch {
            return state.withLock { $0.problem = "its sound could not be played (\(error)); it plays silent" }
        }
        do throws(SoundOutputError) {
            output = try SoundOutput(name: name)
        } catch {
            return state.withLock { $0.problem = "no sound server (\(error.words)); clips play silent" }
        }
        var playing = Playing(source: source, output: output)
        while let (muted, seek) = state.wait(until: { $0.stopped || !$0.paused && (!$0.ended || $0.seekTo != nil) }, then: { s in
            defer { s.seekTo = nil }
            return s.stopped ? nil : (s.muted, s.seekTo)
        }) {
            if let seek {
                playing.seek(to: seek)
                state.withLock { $0.ended = false }
                continue
            }
            guard playing.writeNext(muted: muted) else {
                playing.finish()
                state.withLock { ($0.heard, $0.ended) = (nil, true) }
                continue
            }
            let written = (playing.heard, playing.writtenUpTo)
            let pausedNow = state.withLock { s in
                if s.seekTo == nil { (s.heard, s.writtenUpTo) = written }
                return s.paused
            }
            if pausedNow {
                playing.pause()
                state.withLock { $0.heard = nil }
            }
        }
        output.flush()
    }
}

/// The sound thread's own: the source, the server's stream, and what was written.
private struct Playing {
    let source: any SoundSource
    let output: SoundOutput
    /// Written and perhaps not heard yet, in order; written again from what was heard after a pause.
    var kept: [SoundPiece] = []
    /// To write before decoding more (what a pause cut off).
    var waiting: [SoundPiece] = []
    var writtenUpTo = 0.0
    var heard: (media: Double, at: Double)?

    init(source: any SoundSource, output: SoundOutput) { (self.source, self.output) = (source, output) }

    /// Writes the next piece (silence in its place when muted); false at the end, or when the source or server fails.
    mutating func writeNext(muted: Bool) -> Bool {
        let next: SoundPiece?
        if !waiting.isEmpty { next = waiting.removeFirst() } else { next = try? source.nextPiece(atLeast: SoundPlayer.pieceSeconds) }
        guard let piece = next else { return false }
        let samples = muted ? [Int16](repeating: 0, count: piece.samples.count) : piece.samples
        guard output.write(samples[...]) else { return false }
        writtenUpTo = piece.seconds + piece.duration
        kept.append(piece)
        kept.removeAll { $0.seconds + $0.duration < writtenUpTo - SoundPlayer.kept }
        heard = (writtenUpTo - output.latency, Self.monotonic())
        return true
    }

    /// Paused: what the server holds is dropped, and what was not heard of it is written first when it plays on.
    mutating func pause() {
        let heardUpTo = writtenUpTo - output.latency
        output.flush()
        waiting = kept.compactMap { piece in
            let skipped = Int(((heardUpTo - piece.seconds) * Double(SoundPiece.rate)).rounded())
            guard skipped < piece.frames else { return nil }
            guard skipped > 0 else { return piece }
            return SoundPiece(samples: Array(piece.samples[(skipped * SoundPiece.channels)...]), seconds: heardUpTo)
        }
        kept = []
        heard = nil
    }

    /// To `seconds`: what the server holds is dropped, and the source goes there.
    mutating func seek(to seconds: Double) {
        output.flush()
        try? source.seek(to: seconds)
        (kept, waiting, heard, writtenUpTo) = ([], [], nil, seconds)
    }

    /// At the end: waits (a few tenths of a second at most) for what the server holds to be heard.
    func finish() {
        for _ in 0..<50 where output.latency > 0.005 { usleep(10_000) }
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
