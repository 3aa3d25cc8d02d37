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
        var paused: Bool
        /// Until its sound is opened and the server answered (or it is known there is none to play).
        var starting = true
        var muted: Bool
        var stopped = false
        /// All of it was written (and heard): it waits for a seek.
        var ended = false
        /// A seek asked for, and whether what the server holds is dropped first.
        var seekTo: (seconds: Double, flushing: Bool)?
        /// What is being heard: the clip's time, s, at `at` (CLOCK_MONOTONIC s); nil while nothing is.
        var heard: (media: Double, at: Double)?
        /// The last readings' offsets the clock is made of (`clock`).
        var offsets: [Double] = []
        /// The end of what was written, s of the clip.
        var writtenUpTo = 0.0
        /// Why there is no sound, until taken.
        var problem: String?
    }
    private let state: Locked<State>

    /// Starts playing the sound of the clip at `path` (or of the `movie` inside it), the stream named `name` on the
    /// server, muted or not; `paused`, it opens the sound and the stream and waits to be played.
    public init(path: FilePath, movie: EmbeddedMovie? = nil, name: String, muted: Bool, paused: Bool = false) {
        let state = Locked(State(paused: paused, muted: muted))
        self.state = state
        Worker.start(named: "photozoom-sound") {
            Self.run(path: path, movie: movie, name: name, state: state)
            state.withLock { $0.starting = false }
        }
    }

    deinit { stop() }

    /// The clip's time being heard at `now` (CLOCK_MONOTONIC s); nil while no sound plays (not begun, paused, over,
    /// none, or no server), or while the server takes none: its clock would run past all that was written. A fresh
    /// null sink took its first stream's sound 1.5 s late, its writes blocked; held to that clock, the pictures stood.
    public func position(at now: Double) -> Double? {
        state.withLock { s in
            guard !s.paused, let heard = s.heard else { return nil }
            let position = heard.media + max(0, now - heard.at)
            return position <= s.writtenUpTo + Self.pieceSeconds ? min(position, s.writtenUpTo) : nil
        }
    }

    public var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set { state.withLockWakingWaiters { $0.muted = newValue } }
    }

    /// Whether its sound is still to be heard (being opened, the server reached, the stream started): the pictures
    /// wait for it a moment at their start.
    public var isStarting: Bool { state.withLock { $0.starting } }

    public func setPaused(_ paused: Bool) { state.withLockWakingWaiters { $0.paused = paused } }

    /// To `seconds` of the clip: what the server holds is dropped, and the sound goes on from there; not `flushing`,
    /// it plays out (the stream never stops, which an idle sink may take long to start again) and the sound goes on
    /// from where `seconds` is by the time it is heard.
    public func seek(to seconds: Double, flushing: Bool = true) {
        state.withLockWakingWaiters { s in
            (s.seekTo, s.heard, s.offsets) = ((seconds, flushing), nil, [])
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
                playing.seek(to: seek.seconds, flushing: seek.flushing)
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
                if s.seekTo == nil { (s.heard, s.writtenUpTo) = (Self.clock(&s.offsets, written.0), written.1) }
                if s.heard != nil { s.starting = false }
                return s.paused
            }
            if pausedNow {
                playing.pause()
                state.withLock { ($0.heard, $0.offsets) = (nil, []) }
            }
        }
        output.flush()
    }
}

extension SoundPlayer {
    /// The readings the clock is the median of, and a reading further than this from it, s, that starts it anew (a
    /// seek, the server running dry).
    static let clockReadings = 15
    static let clockReset = 0.1

    /// The clock after a reading of what is heard at a time: the median of the last readings' offsets (the clip's time
    /// less the monotonic clock's). The server's latency, read after each write, wavers by its sink's blocks (the null
    /// sink's jumped by 20 ms) and starts off short: followed reading by reading, a picture waited for the sound, or
    /// was dropped, about once a second.
    static func clock(_ offsets: inout [Double], _ reading: (media: Double, at: Double)?) -> (media: Double, at: Double)? {
        guard let reading else {
            offsets = []
            return nil
        }
        let offset = reading.media - reading.at
        if let median = offsets.median, abs(offset - median) > clockReset { offsets = [] }
        offsets.append(offset)
        if offsets.count > clockReadings { offsets.removeFirst() }
        return (reading.at + (offsets.median ?? offset), reading.at)
    }
}

private extension Array where Element == Double {
    var median: Double? { isEmpty ? nil : sorted()[count / 2] }
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
        // Nothing is heard before the server starts the stream (it says so as a latency of 0): the null sink, idle,
        // started one up to 1.5 s after its first sound.
        let latency = output.latency
        heard = latency > 0 ? (writtenUpTo - latency, Self.monotonic()) : nil
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

    /// To `seconds`: what the server holds is dropped (when `flushing`), and the source goes there. Not flushing,
    /// the stream plays on: the source goes past `seconds` by the server's latency, so that what is written next is
    /// heard at the time it is meant for (an idle null sink starts its first stream 1.5 s behind).
    mutating func seek(to seconds: Double, flushing: Bool) {
        if flushing { output.flush() }
        let target = flushing ? seconds : seconds + output.latency
        try? source.seek(to: target)
        (kept, waiting, heard, writtenUpTo) = ([], [], nil, target)
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
