import Animation
import CWaylandProtocols
import WindowSystem

/// When the compositor showed each frame the window committed: presentation feedback
/// (wp_presentation) where it comes, and frame callbacks until it is seen to (a headless sway never
/// sends feedback). Each frame is reported once, with its refresh: the compositor's count, or where it
/// keeps none (0, as a headless output says), one carried on by the refreshes the times say passed.
final class WaylandFrameTimes {
    private let surface: OpaquePointer
    private let presentation: OpaquePointer?
    /// The output's rate, Hz (the refreshes between two times are counted at it).
    var refreshRate: Double?
    /// Where each shown frame goes: its refresh and when it was shown (CLOCK_MONOTONIC s).
    var report: (_ msc: UInt64, _ time: Double) -> Void = { _, _ in }
    /// The newest frame shown.
    private var lastShown: (msc: UInt64, time: Double)?
    /// Whether feedback comes (a frame was seen `presented`); until then, frame callbacks tell.
    private var feedbackComes = false

    init(surface: OpaquePointer, presentation: OpaquePointer?, refreshRate: Double?) {
        self.surface = surface
        self.presentation = presentation
        self.refreshRate = refreshRate
    }

    /// Before a commit: the compositor is asked to say when its frame is shown.
    func askForNextCommit() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let presentation, let feedback = wp_presentation_feedback(presentation, surface) {
            wp_presentation_feedback_add_listener(feedback, &Self.feedbackListener, me)
        }
        if !feedbackComes, let callback = wl_surface_frame(surface) {
            wl_callback_add_listener(callback, &Self.frameListener, me)
        }
    }

    private func shown(at time: Double, sequence: UInt64) {
        let msc: UInt64
        if sequence != 0 {
            msc = sequence
        } else if let last = lastShown {
            // Frames replaced before a refresh are all called back at it: the same refresh.
            msc = last.msc + UInt64(max(0, ((time - last.time) * (refreshRate ?? 60)).rounded()))
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
            if let feedback { wp_presentation_feedback_destroy(feedback) }
            guard let t = times(data) else { return }
            // The first feedback's frame was told of by its frame callback; from the next on, feedback tells.
            guard t.feedbackComes else { t.feedbackComes = true; return }
            let seconds = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
            t.shown(at: seconds, sequence: UInt64(sequenceHigh) << 32 | UInt64(sequenceLow))
        },
        discarded: { data, feedback in
            if let feedback { wp_presentation_feedback_destroy(feedback) }
            guard let t = times(data), t.feedbackComes else { return }
            t.discarded()
        })

    private nonisolated(unsafe) static var frameListener = wl_callback_listener(
        done: { data, callback, milliseconds in
            if let callback { wl_callback_destroy(callback) }
            // The callback's time is the compositor's milliseconds (CLOCK_MONOTONIC, as its input's).
            guard let t = times(data), !t.feedbackComes else { return }
            t.shown(at: MillisecondClock.monotonicTime(ofEventTime: Double(milliseconds) / 1000) ?? MonotonicClock.seconds(), sequence: 0)
        })
}
