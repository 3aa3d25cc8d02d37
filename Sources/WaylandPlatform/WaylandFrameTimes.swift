import Animation
import CWaylandProtocols
import WindowSystem

/// When the compositor showed each frame the window committed: presentation feedback
/// (wp_presentation) where it comes, and frame callbacks until it is seen to. A compositor that never
/// answers feedback (a headless sway) is no longer asked once frame callbacks have told of
/// `callbacksWithoutFeedback` frames: each unanswered feedback would stay, here and in the compositor,
/// for as long as the window is open. Each frame is reported once, with its refresh: the compositor's
/// count, or where it keeps none (0, as a headless output says), one carried on by the refreshes the
/// times say passed.
final class WaylandFrameTimes {
    private let surface: OpaquePointer
    private let presentation: OpaquePointer?
    /// The output's rate, Hz (the refreshes between two times are counted at it).
    var refreshRate: Double?
    /// Where each shown frame goes: its refresh and when it was shown (CLOCK_MONOTONIC s).
    var report: (_ msc: UInt64, _ time: Double) -> Void = { _, _ in }
    /// The newest frame shown.
    private var lastShown: (msc: UInt64, time: Double)?
    /// How far apart the compositor's repaints come, learnt from frames shown one repaint apart, where it
    /// counts none itself: a headless sway repaints on a timer started after each repaint (6 ms at
    /// "144 Hz"), not at the mode's rate, so a frame is late only when a repaint passed without it.
    private var cadence: Double?
    /// Whether feedback comes (a frame was seen `presented`); until then, frame callbacks tell.
    private(set) var feedbackComes = false
    /// Frames told of by callbacks while no feedback came; past the limit, feedback is not asked for.
    private var callbacksWithoutFeedback = 0
    static let feedbackGiveUp = 8
    /// Feedback and callbacks asked for and not answered yet (let go with the window).
    private var waiting: Set<OpaquePointer> = []

    init(surface: OpaquePointer, presentation: OpaquePointer?, refreshRate: Double?) {
        self.surface = surface
        self.presentation = presentation
        self.refreshRate = refreshRate
    }

    deinit {
        for proxy in waiting { wl_proxy_destroy(proxy) }
    }

    /// Before a commit: the compositor is asked to say when its frame is shown.
    func askForNextCommit() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let presentation, feedbackComes || callbacksWithoutFeedback < Self.feedbackGiveUp,
           let feedback = wp_presentation_feedback(presentation, surface) {
            wp_presentation_feedback_add_listener(feedback, &Self.feedbackListener, me)
            waiting.insert(feedback)
        }
        if !feedbackComes, let callback = wl_surface_frame(surface) {
            wl_callback_add_listener(callback, &Self.frameListener, me)
            waiting.insert(callback)
        }
    }

    /// An answer came: its object goes.
    private func answered(_ proxy: OpaquePointer?) {
        guard let proxy else { return }
        waiting.remove(proxy)
        wl_proxy_destroy(proxy)
    }

    private func shown(at time: Double, sequence: UInt64) {
        let msc: UInt64
        if sequence != 0 {
            msc = sequence
        } else if let last = lastShown {
            // Frames replaced before a refresh are all called back at it: the same refresh.
            let interval = cadence ?? 1 / (refreshRate ?? 60)
            let gap = time - last.time
            let repaints = max(0, (gap / interval).rounded())
            if repaints == 1 { cadence = interval + (gap - interval) / 8 }
            msc = last.msc + UInt64(repaints)
        } else {
            msc = 1
        }
        lastShown = (msc, time)
        report(msc, time)
    }

    /// A frame the compositor never showed (a newer one replaced it first): reported as shown with the
    /// one before, so the loop's count of frames in flight stays true.
    private func discarded() {
        let last = lastShown ?? (0, MonotonicClock.seconds())
        report(last.msc, last.time)
    }

    private static func times(_ data: UnsafeMutableRawPointer?) -> WaylandFrameTimes? {
        data.map { Unmanaged<WaylandFrameTimes>.fromOpaque($0).takeUnretainedValue() }
    }

    private nonisolated(unsafe) static var feedbackListener = wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, _, sequenceHigh, sequenceLow, _ in
            guard let t = times(data) else { return }
            t.answered(feedback)
            // The first feedback's frame was told of by its frame callback; from the next on, feedback tells.
            guard t.feedbackComes else { t.feedbackComes = true; return }
            let seconds = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
            t.shown(at: seconds, sequence: UInt64(sequenceHigh) << 32 | UInt64(sequenceLow))
        },
        discarded: { data, feedback in
            guard let t = times(data) else { return }
            t.answered(feedback)
            if t.feedbackComes { t.discarded() }
        })

    private nonisolated(unsafe) static var frameListener = wl_callback_listener(
        done: { data, callback, milliseconds in
            guard let t = times(data) else { return }
            t.answered(callback)
            guard !t.feedbackComes else { return }
            t.callbacksWithoutFeedback += 1
            // The callback's time is the compositor's milliseconds (CLOCK_MONOTONIC, as its input's).
            t.shown(at: MillisecondClock.monotonicTime(ofEventTime: Double(milliseconds) / 1000) ?? MonotonicClock.seconds(), sequence: 0)
        })
}
