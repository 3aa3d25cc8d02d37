import Animation
import Imaging
import Library
import Pixels

/// Plays the open photo's animation on the app's clock: each frame stays up for its own time, as the
/// stream decodes them ahead. A frame put up a little after it was due keeps the schedule (the next
/// one is due as if it had been on time); one much later (decoding fell behind, or the player was
/// paused) starts the schedule again from now, so that frames never burst to catch up.
///
/// A clip with sound is held to its sound (the sound is the master clock): within `syncTolerance` of it the pictures
/// keep their own steady schedule; ahead of it a picture waits, behind it those whose time it passed are dropped.
/// Before the sound begins, and after it ends, the pictures keep their own schedule alone.
final class AnimationPlayer {
    /// Later than this, s, a frame starts the schedule anew.
    static let resync = 0.1
    /// A frame due within this of now is due now, s (frame times are sums of fractions of a second).
    static let tolerance = 1e-6
    /// A clip's pictures stay this near its sound, s, either way (ITU-R BT.1359 notices +45 ms and -125 ms).
    static let syncTolerance = 0.02

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

    /// The clip's sound, played from its first picture (nil: none is played).
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

    /// `sound`: the clip's, opened now and paused (its decoder starts while the poster zooms in), played with the
    /// first picture.
    init(index: Int, stream: AnimationStream, slack: Double = 0, sound: SoundPlayer? = nil) {
        self.index = index
        self.stream = stream
        self.slack = max(slack, Self.tolerance)
        self.sound = sound
    }

    /// The pictures wait this long at most, s, for their sound to be heard before they start without it; a sound
    /// heard later is taken to their time (a moment of it lost), never they to its.
    static let soundWait = 0.1
    /// A sound heard this far from the pictures, s, is taken to them; nearer, they wait for it or drop to it.
    static let joinGap = 0.25
    /// Whether the sound was heard at the last frame due.
    private var soundJoined = false
    /// When the first picture was first due.
    private var firstDue: Double?

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
        let due = shown.map { $0.at + $0.duration } ?? now
        guard now + slack >= due else { return nil }
        // The first picture waits for the sound to be ready (a moment, its decoder started at the tap): they start together.
        if framesShown == 0, let sound, sound.isStarting, now - (firstDue ?? now) < Self.soundWait {
            firstDue = firstDue ?? now
            return nil
        }
        var restart = now - due > Self.resync
        // The sound heard (again, after a seek or a pause): far from the pictures (the server was slow to start it),
        // it is taken to their time, its stream never stopped.
        let heardNow = sound?.position(at: now)
        if let sound, let heard = heardNow, !soundJoined, abs(heard - clipTime) > Self.joinGap {
            sound.seek(to: clipTime, flushing: false)
        }
        soundJoined = heardNow != nil
        if let heard = sound?.position(at: now) {
            // Held to the sound within `syncTolerance`, either way: ahead of it, the picture waits; behind, those
            // whose time the sound has passed are dropped. Inside the band the pictures keep their steady schedule
            // (the sound's position, read every write, wavers by a few ms: followed picture by picture, a 30 fps
            // clip went up 3, 1, 3 refreshes).
            if heard - clipTime < -Self.syncTolerance { return nil }
            while heard - clipTime > Self.syncTolerance, stream.readyCount >= 2, takeFrame() != nil { restart = true }
            // A picture that waited for the sound starts the schedule anew, as a dropped one does.
            restart = restart || now - due > slack
        }
        guard let frame = takeFrame() else { return nil }
        if let heard = sound?.position(at: now) { soundLead = heard - frame.time }
        // Kept to its schedule, early or late (within `resync`): the next is due as if it had been on time; after a
        // wait or a drop for the sound, from now.
        shown = (restart ? now : due, frame.duration)
        return frame.image
    }

    /// The stream's next picture, counted (nil: none decoded yet, or the end, or a failure, which are kept).
    private func takeFrame() -> AnimatedImage.Frame? {
        switch stream.takeNext() {
        case .frame(let frame):
            if framesShown == 0 { sound?.setPaused(false) }
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
