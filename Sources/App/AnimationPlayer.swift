import Animation
import Imaging
import Library
import Pixels

/// Plays the open photo's animation on the app's clock: each frame stays up for its own time, as the
/// stream decodes them ahead. A frame put up a little after it was due keeps the schedule (the next
/// one is due as if it had been on time); one much later (decoding fell behind, or the player was
/// paused) starts the schedule again from now, so that frames never burst to catch up.
///
/// A clip with sound follows its sound instead (the sound is the master clock): a picture goes up once the sound
/// has reached its time, and one whose time the sound has already passed is dropped. Before the sound begins, and
/// after it ends, the pictures keep their own schedule.
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

    /// Starts the clip's sound with its first picture (nil: none is played).
    private let startSound: (() -> SoundPlayer)?
    private(set) var sound: SoundPlayer?
    /// The time of the picture on screen, s from the start, how long it shows, and the time at its end.
    private(set) var time = 0.0
    private var lastDuration = 1.0 / 30
    private var clipTime = 0.0
    /// A frame step or a seek while paused: the next picture decoded goes up, and it stays paused.
    private var showsNextWhilePaused = false
    /// How far the sound was ahead of the last picture put up when it went up, s (its time heard less its own),
    /// until taken.
    private var soundLead: Double?

    func takeSoundLead() -> Double? {
        defer { soundLead = nil }
        return soundLead
    }

    init(index: Int, stream: AnimationStream, slack: Double = 0, sound: (() -> SoundPlayer)? = nil) {
        self.index = index
        self.stream = stream
        self.slack = max(slack, Self.tolerance)
        startSound = sound
    }

    deinit {
        stream.stop()
        sound?.stop()
    }

    /// Mute (`m`): the sound plays on in silence, the pictures still following it.
    var isMuted = false {
        didSet { sound?.isMuted = isMuted }
    }

    /// The frame to put up at `now`: when the one on screen has had its time and the next is decoded.
    func frame(at now: Double) -> PixelImage? {
        guard !isFinished else { return nil }
        if isPaused {
            guard showsNextWhilePaused, let frame = takeFrame() else { return nil }
            showsNextWhilePaused = false
            return frame.image
        }
        if let heard = sound?.position(at: now) { return frame(following: heard, at: now) }
        let due = shown.map { $0.at + $0.duration } ?? now
        guard now + slack >= due, let frame = takeFrame() else { return nil }
        // Kept to its schedule, early or late (within `resync`): the next is due as if it had been on time.
        shown = (now - due > Self.resync ? now : due, frame.duration)
        return frame.image
    }

    /// The picture the sound at `heard` (the clip's s) has reached; those whose time it has passed are dropped.
    private func frame(following heard: Double, at now: Double) -> PixelImage? {
        var image: PixelImage?
        while heard + slack >= clipTime, image == nil || heard >= clipTime, let frame = takeFrame() {
            soundLead = heard - (clipTime - frame.duration)
            (image, shown) = (frame.image, (now, frame.duration))
        }
        return image
    }

    /// The stream's next picture, counted (nil: none decoded yet, or the end, or a failure, which are kept).
    private func takeFrame() -> AnimatedImage.Frame? {
        switch stream.takeNext() {
        case .frame(let frame):
            if framesShown == 0 { sound = startSound?() }
            sound?.isMuted = isMuted
            framesShown += 1
            (time, clipTime, lastDuration) = (frame.time, frame.time + frame.duration, frame.duration)
            return frame
        case .end:
            isFinished = true
        case .failed(let error):
            (isFinished, failure) = (true, error)
        case nil:
            break
        }
        return nil
    }

    /// Why it stopped before its end (a clip cut short, a file that changed), until taken: said once.
    private(set) var failure: ImageDecodeError?

    func takeFailure() -> ImageDecodeError? {
        defer { failure = nil }
        return failure
    }

    /// When the next frame is due; nil while paused or finished. Following the sound, when it reaches the next
    /// picture's time (as it is heard now).
    var nextDue: Double? {
        if isPaused { return showsNextWhilePaused && !isFinished ? 0 : nil }
        guard !isFinished else { return nil }
        let now = MonotonicClock.seconds()
        if let heard = sound?.position(at: now) { return now + clipTime - heard - slack }
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
        sound?.setPaused(isPaused)
    }

    /// To the picture at `seconds` (the scrub bar): it goes up as soon as it is decoded, playing on from there unless
    /// paused; the sound follows.
    func seek(to seconds: Double) {
        stream.seek(to: seconds)
        sound?.seek(to: seconds)
        (isFinished, shown, showsNextWhilePaused) = (false, nil, isPaused)
        (time, clipTime) = (seconds, seconds)
    }

    /// `,` and `.` while paused: the picture before the one shown, or the one after it. False while it plays.
    func step(forward: Bool) -> Bool {
        guard isPaused else { return false }
        if forward {
            isFinished = false
            showsNextWhilePaused = true
        } else {
            // Within the picture before: a clip's seek takes the first picture from half a picture before the time.
            seek(to: max(0, time - 0.75 * lastDuration))
        }
        return true
    }

    /// Headless: waits until the next frame is decoded, so that every frame is on time and a run is
    /// the same every time.
    func waitForNextFrame() {
        guard !isPaused || showsNextWhilePaused, !isFinished else { return }
        stream.waitForNext()
    }
}
