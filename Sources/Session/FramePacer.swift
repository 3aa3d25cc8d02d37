import Animation
import WindowSystem

/// When the window loop draws a frame.
/// - Where the window paces by refresh (X Present): a frame begun just in time for its refresh (before
///   the one in flight is shown when the draw needs it: the window has two buffers) and sampled at the
///   time it will be on screen (`PresentationClock`); `--fps` below the display's rate skips refreshes
///   evenly.
/// - Otherwise on a timer at `--fps` (the output's rate when RandR gives one, else 60 Hz): frames keep
///   to a grid of intervals (a draw's cost does not push the next one back), and after a stall or an
///   idle spell the grid starts again from now.
final class FramePacer {
    /// The animations' clock.
    let clock: FrameClock
    /// Set when the display paces the frames.
    let presentation: PresentationClock?
    /// Set when a timer does.
    private let timer: MonotonicClock?
    /// `--fps`, the cap; nil: the display's rate.
    private let fps: Double?
    /// How many frames the window can hold in flight (its buffers).
    private let windowBuffers: Int
    /// The timer's: when the next frame is due (monotonic s).
    private var nextFrame = MonotonicClock.seconds()

    init(window: any PlatformWindow, fps: Double?) {
        self.fps = fps
        windowBuffers = window.framesInFlight
        if window.pacesByRefresh {
            let presentation = PresentationClock(timeline: DisplayTimeline(rate: window.refreshRate))
            presentation.buffers = windowBuffers
            presentation.holdsFramesForTheirRefresh = window.holdsFramesForTheirRefresh
            presentation.refreshesCountWhileIdle = window.countsRefreshesWhileIdle
            presentation.knownLead = window.refreshLead
            clock = presentation
            self.presentation = presentation
            timer = nil
            capRefreshes()
        } else {
            let timer = MonotonicClock(fps: fps ?? window.refreshRate ?? 60)
            clock = timer
            self.timer = timer
            presentation = nil
        }
    }

    /// What the loop does about a wanted frame.
    enum Verdict: Equatable {
        case drawNow
        /// Asks again after this many seconds, or an event (nil: an event).
        case wait(Double?)
    }

    /// Whether something moves: only then may a frame be drawn while the one before waits for its refresh. At
    /// rest a frame waits for it, so the window's second buffer is drawn into only once something moves (a launch
    /// that shows one photo touches one buffer: 8 MiB fewer at 1080p, 32 at 4K), at most a refresh later.
    var inMotion = true {
        didSet { if inMotion != oldValue { presentation?.buffers = inMotion ? windowBuffers : 1 } }
    }

    /// Whether the frames follow input as it comes (`PresentationClock.followsInput`).
    var followsInput: Bool {
        get { presentation?.followsInput ?? true }
        set { presentation?.followsInput = newValue }
    }

    /// A frame is wanted at `now` (monotonic s).
    func frameWanted(at now: Double) -> Verdict {
        guard let presentation else {
            return now >= nextFrame ? .drawNow : .wait(nextFrame - now)
        }
        presentation.want(at: now)
        guard let start = presentation.startTime(at: now) else {
            // Frames in flight hold the buffers: a completion wakes the loop (or the oldest's deadline).
            return .wait(presentation.inFlightDeadline.map { max(0, $0 - now) })
        }
        return now >= start ? .drawNow : .wait(start - now)
    }

    /// Whether a frame in flight was never reported by `now` (and is given up).
    func abandonOverdue(at now: Double) -> Bool {
        presentation?.abandonOverdue(at: now) ?? false
    }

    /// Events are handled from here to `releaseTime`: the animations they start all begin at the same
    /// time (`PresentationClock.holdTime`).
    func holdTime() { presentation?.holdTime() }

    func releaseTime() { presentation?.releaseTime() }

    /// A frame starts at `now`: the refresh it is for (nil: the next, or no refreshes).
    func beginFrame(at now: Double) -> UInt64? {
        presentation?.beginFrame(at: now).msc
    }

    /// The frame begun at `started` is drawn and, if `sent`, sent (at `now`).
    func endFrame(started: Double, at now: Double, sent: Bool) {
        if let presentation {
            presentation.endFrame(started: started, at: now, sent: sent)
        } else if sent {
            nextFrame += clock.frameInterval
            if nextFrame < started { nextFrame = started + clock.frameInterval }
        }
    }

    /// The display showed the frame in flight at refresh `msc`, at `time`; `onAGrid`: the window's
    /// `presentsOnAGrid` now (a compositor's feedback may start to come).
    func shown(msc: UInt64, at time: Double, onAGrid: Bool) -> PresentationClock.Shown? {
        defer { capRefreshes() }   // the rate, measured, may have changed
        presentation?.refreshesOnAGrid = onAGrid
        return presentation?.completed(msc: msc, at: time)
    }

    /// The output under the window has another rate, and needs a frame `lead` refreshes before one
    /// (`PlatformWindow.refreshLead`). The timer, uncapped, takes the new rate.
    func rateChanged(to rate: Double?, lead: Double) {
        presentation?.modeChanged(rate: rate)
        presentation?.knownLead = lead
        if let timer, fps == nil { timer.frameInterval = 1 / (rate ?? 60) }
        capRefreshes()
    }

    /// `--fps` under the display's rate: a frame every so many refreshes.
    private func capRefreshes() {
        guard let presentation, let fps else { return }
        presentation.divisor = max(1, UInt64((presentation.timeline.rate / fps).rounded()))
    }
}
