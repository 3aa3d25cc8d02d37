import Imaging
import Library
import Pixels

/// Plays the open photo's animation on the app's clock: each frame stays up for its own time, as the
/// stream decodes them ahead. A frame put up a little after it was due keeps the schedule (the next
/// one is due as if it had been on time); one much later (decoding fell behind, or the player was
/// paused) starts the schedule again from now, so that frames never burst to catch up.
final class AnimationPlayer {
    /// Later than this, s, a frame starts the schedule anew.
    static let resync = 0.1
    /// A frame due within this of now is due now, s (frame times are sums of fractions of a second).
    static let tolerance = 1e-6

    /// The photo that plays (its place changes when photos before it come or go).
    var index: Int
    private let stream: AnimationStream
    private(set) var isPaused = false
    /// The last play ended (or the file failed): the last frame stays.
    private(set) var isFinished = false
    /// The frame on screen: when it went up and how long it stays.
    private var shown: (at: Double, duration: Double)?
    /// Paused with this much of the frame on screen's time left.
    private var left: Double?
    /// Frames put up since it started (the motion trace counts them).
    private(set) var framesShown = 0

    /// A frame due this little after a frame's time goes up in it, s: half a frame of the clock, so that each goes up
    /// at the refresh nearest its time. Due exactly on a refresh (a 30 fps clip's every other one at 60 Hz), a frame
    /// judged "not yet" by a clock's jitter of a fraction of a millisecond waited a whole refresh, and the one after
    /// it had one: pictures shown 3, 1, 3 refreshes instead of 2, 2, 2.
    let slack: Double

    init(index: Int, stream: AnimationStream, slack: Double = 0) {
        self.index = index
        self.stream = stream
        self.slack = max(slack, Self.tolerance)
    }

    deinit { stream.stop() }

    /// The frame to put up at `now`: when the one on screen has had its time and the next is decoded.
    func frame(at now: Double) -> PixelImage? {
        guard !isPaused, !isFinished else { return nil }
        let due = shown.map { $0.at + $0.duration } ?? now
        guard now + slack >= due, let item = stream.takeNext() else { return nil }
        switch item {
        case .frame(let frame):
            // Kept to its schedule, early or late (within `resync`): the next is due as if it had been on time.
            shown = (now - due > Self.resync ? now : due, frame.duration)
            framesShown += 1
            return frame.image
        case .end:
            isFinished = true
            return nil
        case .failed(let error):
            (isFinished, failure) = (true, error)
            return nil
        }
    }

    /// Why it stopped before its end (a clip cut short, a file that changed), until taken: said once.
    private(set) var failure: ImageDecodeError?

    func takeFailure() -> ImageDecodeError? {
        defer { failure = nil }
        return failure
    }

    /// When the next frame is due; nil while paused or finished.
    var nextDue: Double? {
        guard !isPaused, !isFinished else { return nil }
        return shown.map { $0.at + $0.duration - slack } ?? 0
    }

    /// Space: pauses, keeping what is left of the frame on screen's time; or plays on from there.
    func togglePause(at now: Double) {
        if isPaused {
            if let left, let shown { self.shown = (now + left - shown.duration, shown.duration) }
            left = nil
        } else if let shown {
            left = max(0, shown.at + shown.duration - now)
        }
        isPaused.toggle()
    }

    /// Headless: waits until the next frame is decoded, so that every frame is on time and a run is
    /// the same every time.
    func waitForNextFrame() {
        guard !isPaused, !isFinished else { return }
        stream.waitForNext()
    }
}
