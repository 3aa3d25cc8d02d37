/// The window's clock when the display paces the frames (X Present): a frame's time is when it will be
/// on screen, not when it is drawn. The clock decides which refresh the next frame aims for and when to
/// start drawing it (as late as its refresh allows, so that input arriving meanwhile still makes it),
/// keeps at most one frame in flight per buffer (a second buffer lets a draw longer than the time left
/// after a completion start before it), and, when the display says where a frame went, how many
/// refreshes it missed.
///
/// Between frames, `now` is the time of the refresh the next frame would reach, so that an animation
/// started by input begins with the frame that first shows it; while the loop handles a batch of events
/// it holds that time (`holdTime`), so that the animations one event starts begin together.
public final class PresentationClock: FrameClock {
    /// What the server is first assumed to need before a refresh to show a frame sent to it, s.
    public static let serverMargin = 0.002
    /// The most the server's lead may grow to, in refreshes (Xvfb's fake refresh needs half of one:
    /// its counter turns halfway between two refreshes).
    static let maxServerLead = 0.6
    /// A frame that missed, sent this much later than the server's lead or less, makes the lead grow, s.
    static let leadTolerance = 0.002
    /// Draws remembered to estimate the next one's cost.
    static let costWindow = 16
    /// Until a draw was measured, one is expected to take this long, s.
    static let firstCostGuess = 0.008

    /// A frame being drawn or in flight.
    public struct Frame: Sendable, Equatable {
        /// The refresh it aims for; nil: the next one the server can make (the counters are not known,
        /// or not recently).
        public let msc: UInt64?
        /// When it is expected on screen: the time the animations are sampled at.
        public let time: Double
        /// Whether it goes on a motion: wanted before the refresh after the frame before it (it is due
        /// at that refresh, and judged by how far after that frame it shows).
        let continues: Bool
        /// Where a frame that starts a motion is due: the first refresh a draw could reach from when it
        /// was wanted; nil when not known.
        let intended: UInt64?
        /// When it was sent (monotonic s); nil while it is drawn.
        var sent: Double? = nil
        /// The refresh it is expected at once sent: `msc`, or the one after when it was sent too late
        /// for that (the server shows it then, and a frame aimed there would replace it). Too late is
        /// more than `leadTolerance` past the server's lead as learnt: that lead only grows, and one sent
        /// just past it mostly made its refresh (the next frame, aimed a refresh further, left one empty).
        var expected: UInt64? = nil
    }

    /// A frame the display showed.
    public struct Shown: Sendable, Equatable {
        public let frame: Frame
        public let msc: UInt64
        /// When it went on screen (UST), s.
        public let time: Double
        /// Refreshes missed: how much later it came than the refresh it was due for.
        public let missed: UInt64
    }

    public private(set) var timeline: DisplayTimeline
    /// A frame at most every `divisor` refreshes (`--fps` below the display's rate).
    public var divisor: UInt64 = 1
    /// Whether the frames follow input as it comes (a finger or the pointer is down): each is begun as
    /// late as its refresh allows, so that the newest input makes it (off a grid, or before such frames'
    /// cost was measured, at once). Otherwise (a flight, a glide, a spring on its own) a frame is begun
    /// once the one before is shown (or the one two before, `holdsFramesForTheirRefresh`), with the whole
    /// refresh to be drawn in: a heavier frame (a row of new cells scrolling in) does not miss its
    /// refresh, which just in time it did when it took more than a quarter over the slowest recent draw.
    public var followsInput = true
    /// How many frames may be in flight: the window's buffers (each is the server's until its frame
    /// is shown).
    public var buffers = 1
    /// Whether the display holds a frame sent ahead until the refresh it is for (X Present): then a
    /// motion on its own is drawn a refresh further ahead, each frame begun once the one two before is
    /// shown, with two refreshes to be drawn in (with two buffers). With one, the 4K frame that landed a
    /// photo (the grid drawn whole, 10–12 ms) had what Xvfb's lead of half a refresh left: 6 ms.
    public var holdsFramesForTheirRefresh = false
    /// The frames sent and not yet shown, oldest first.
    public private(set) var inFlight: [Frame] = []
    private let monotonic: () -> Double
    /// The frame being drawn.
    private var current: Frame?
    private var lastShown: UInt64?
    /// Since when a frame has been wanted (nil: none is).
    private var wantedSince: Double?
    /// The refresh the next frame is planned for, once its start time was given: waking a moment
    /// after that time must not move the plan to the refresh after (and again after that one).
    private var planned: UInt64?
    /// A recent draw: from when it was to start (or, begun at once, began) to `endFrame`, s (a loop that
    /// wakes late, or works before it draws, needs that much more before its refresh), and whether it
    /// followed input.
    private struct Draw {
        let cost: Double
        let followedInput: Bool
    }
    private var draws: [Draw] = []
    /// When the frame being planned or drawn was to start (`startTime`'s answer).
    private var plannedStart: Double?
    /// How long before a refresh the server needs a frame, s: what it is known to need
    /// (`knownLead`), or more as learnt from frames sent in time that came a refresh late.
    public var serverLead: Double { max(learntLead, knownLead * timeline.interval + Self.serverMargin) }
    /// What the display is known to need before a refresh, in refreshes (`PlatformWindow.refreshLead`).
    public var knownLead = 0.0
    private var learntLead = PresentationClock.serverMargin

    /// `monotonic`: CLOCK_MONOTONIC seconds (tests pass their own).
    public init(timeline: DisplayTimeline, monotonic: @escaping () -> Double = MonotonicClock.seconds) {
        self.timeline = timeline
        self.monotonic = monotonic
    }

    /// The time held while events are handled (nil: none are).
    private var heldTime: Double?

    public var now: Double { current?.time ?? heldTime ?? aim(at: monotonic()).time }

    /// Events are being handled: `now` keeps the time it has until `releaseTime`. A release's curves
    /// start one after another; read a moment apart, some could be given the refresh after the
    /// others' (the server's deadline for it passing between them) and run a refresh behind them.
    public func holdTime() {
        heldTime = nil
        heldTime = now
    }

    /// The events are handled: between frames `now` follows the clock again.
    public func releaseTime() {
        heldTime = nil
    }

    public var frameInterval: Double { timeline.interval * Double(divisor) }

    /// How long before its refresh a frame is started: the slowest recent draw with a quarter more,
    /// and the server's lead.
    public var budget: Double {
        (draws.lazy.map(\.cost).max() ?? Self.firstCostGuess) * 1.25 + serverLead
    }

    /// How long before its refresh a frame of a motion on its own is begun, at the least.
    private var ownMotionLead: Double {
        frameInterval * (holdsFramesForTheirRefresh ? Double(max(1, buffers)) : 1)
    }

    /// What a draw is expected to need before its refresh: the median recent one and the server's
    /// lead. A refresh further than that is one a frame begun now can make.
    var expectedCost: Double {
        (draws.isEmpty ? Self.firstCostGuess : draws.map(\.cost).sorted()[draws.count / 2]) + serverLead
    }

    /// Whether the display's counter goes on while no frame waits (`DisplayTimeline.countsWhileIdle`).
    public var refreshesCountWhileIdle: Bool {
        get { timeline.countsWhileIdle }
        set { timeline.countsWhileIdle = newValue }
    }

    /// Whether the display's completions tell refreshes on a grid (`DisplayTimeline.onAGrid`).
    public var refreshesOnAGrid: Bool {
        get { timeline.onAGrid }
        set { timeline.onAGrid = newValue }
    }

    /// The output's rate changed (another output, another mode).
    public func modeChanged(rate: Double?) {
        timeline.modeChanged(rate: rate)
        lastShown = nil
        learntLead = Self.serverMargin
    }

    /// Something wants a frame from `time` on (the loop says so each time round; the first counts).
    public func want(at time: Double) {
        if wantedSince == nil { wantedSince = time }
    }

    /// When to start the next frame, monotonic s: `time` itself, or later so that it is drawn just in
    /// time for its refresh. Nil while every buffer is in flight, or one is and its refresh is not known
    /// (a second frame could not be aimed after it).
    public func startTime(at time: Double) -> Double? {
        guard inFlight.count < buffers, inFlight.allSatisfy({ $0.msc != nil }) else { return nil }
        let target = aim(at: time)
        planned = target.msc
        // Off a grid (a compositor repainting on a timer of its own, at once for a commit after it ran
        // out) no refresh can be aimed at just in time: a frame following input is begun as it comes.
        let aimed = target.msc != nil && (timeline.onAGrid || !followsInput)
        // Just in time needs what such a frame costs: a gesture's first two frames are begun as the input
        // comes, the draws measured before them being of another kind, and the first of the gesture (the
        // press) drawing what was there (at 4K the pull's first frame, the grid appearing under the photo,
        // took 9–15 ms after 5–6 ms for the press and the frames of a spring).
        let costKnown = !followsInput || draws.count(where: \.followedInput) >= 2
        let lead = followsInput ? budget : max(budget, ownMotionLead)
        let start = aimed && costKnown ? max(time, target.time - lead) : time
        plannedStart = start
        return start
    }

    /// A frame starts at `time`: from now until `endFrame`, `now` is the time it will be shown.
    @discardableResult
    public func beginFrame(at time: Double) -> Frame {
        let aim = aim(at: time)
        // A motion that goes on (wanted before the server's deadline for the refresh after the frame before)
        // is due at that refresh: a draw too slow for it misses one. One that starts, or input that came
        // past that deadline (no draw could have shown it then), is due at the first refresh a draw begun
        // when it was wanted could make.
        var continues = false, intended: UInt64?
        let since = wantedSince ?? time
        if timeline.isFresh(at: since) {
            if continuesMotion(wantedSince: since) {
                continues = true
            } else if let reachable = timeline.nextRefresh(after: since, margin: expectedCost).msc {
                let due = max(reachable, lastShown.map { $0 + divisor } ?? 0)
                intended = aim.msc.map { min(due, $0) } ?? due
            }
        }
        let frame = Frame(msc: aim.msc, time: aim.time, continues: continues, intended: intended)
        current = frame
        return frame
    }

    /// The frame begun at `started` is drawn (and, if `sent`, in flight) at `time`.
    public func endFrame(started: Double, at time: Double, sent: Bool) {
        draws.append(Draw(cost: time - min(started, plannedStart ?? started), followedInput: followsInput))
        if draws.count > Self.costWindow { draws.removeFirst() }
        if sent, var frame = current {
            frame.sent = time
            frame.expected = frame.msc.map { msc in
                timeline.time(of: msc).map { time > $0 - serverLead + Self.leadTolerance } == true ? msc + 1 : msc
            }
            inFlight.append(frame)
        }
        current = nil
        wantedSince = nil
        planned = nil
        plannedStart = nil
    }

    /// The display showed the oldest frame in flight at refresh `msc`, at `time` (s).
    public func completed(msc: UInt64, at time: Double) -> Shown? {
        timeline.completed(msc: msc, time: time)
        guard !inFlight.isEmpty else { return nil }
        let frame = inFlight.removeFirst()
        let due = frame.continues ? lastShown.map { $0 + divisor } : frame.intended
        lastShown = msc
        learnServerLead(from: frame, shownAt: msc)
        return Shown(frame: frame, msc: msc, time: time, missed: due.map { msc > $0 ? msc - $0 : 0 } ?? 0)
    }

    /// The refresh of the newest frame sent, shown or not.
    private var newestAimed: UInt64? { inFlight.last?.expected ?? lastShown }

    /// A frame sent before the refresh it aimed for, with about the lead the server was thought to need
    /// or more, that came later needed more: the server's lead grows past what it had by a millisecond.
    /// (A frame sent well after that lead was late by the loop's fault and teaches nothing.)
    private func learnServerLead(from frame: Frame, shownAt msc: UInt64) {
        guard let aimed = frame.msc, msc > aimed, let sent = frame.sent, let due = timeline.time(of: aimed) else { return }
        let lead = due - sent
        guard lead > serverLead - Self.leadTolerance else { return }
        learntLead = min(max(lead, serverLead) + 0.001, timeline.interval * Self.maxServerLead)
    }

    /// The oldest frame in flight was never reported (a lost completion): the next one need not wait
    /// for it. Whether there was one overdue at `time` (four refreshes and a tenth of a second late).
    public func abandonOverdue(at time: Double) -> Bool {
        guard let oldest = inFlight.first, time > overdueTime(oldest) else { return false }
        inFlight.removeFirst()
        return true
    }

    /// When the oldest frame in flight counts as lost, monotonic s.
    public var inFlightDeadline: Double? { inFlight.first.map(overdueTime) }

    private func overdueTime(_ frame: Frame) -> Double { frame.time + 4 * timeline.interval + 0.1 }

    /// The refresh a frame started at `time` aims for, and when it shows: the planned one until the
    /// server could no longer take a frame for it (a wake-up a moment late must not move the plan a
    /// refresh on, and the next plan again), else the first it can reach.
    private func aim(at time: Double) -> (msc: UInt64?, time: Double) {
        if let planned, timeline.isFresh(at: time), let shows = timeline.time(of: planned), time + serverLead < shows {
            return (planned, shows)
        }
        return upcoming(at: time)
    }

    /// Whether a frame wanted since `since` goes on a motion: wanted before the server's deadline for the
    /// refresh after the frame before.
    private func continuesMotion(wantedSince since: Double) -> Bool {
        guard let previous = newestAimed, let next = timeline.time(of: previous + divisor) else { return false }
        return since <= next - serverLead
    }

    /// Whether a frame started at `time` begins a motion after a pause: nothing in flight, nothing shown
    /// for two refreshes, and not wanted in time to go on a motion before.
    private func startsAfterPause(at time: Double) -> Bool {
        guard inFlight.isEmpty, !continuesMotion(wantedSince: wantedSince ?? time) else { return false }
        return timeline.last.map { time - $0.time > 2 * timeline.interval } ?? true
    }

    /// The first refresh a frame started at `time` can be expected to reach, and when it shows. A motion's
    /// first frame after a pause aims where its slowest recent draw would still show it (the budget):
    /// aimed at a closer refresh by the median draw and shown a refresh late, it was shown with the frame
    /// after it, and the one after that, a refresh less to be drawn in, missed (at 4K, the tap on the grid
    /// and the spring of `0`). Within a motion the median draw is aimed by: by the budget, input that came
    /// late for one refresh would be shown two later.
    private func upcoming(at time: Double) -> (msc: UInt64?, time: Double) {
        let next = timeline.nextRefresh(after: time, margin: startsAfterPause(at: time) ? budget : expectedCost)
        guard timeline.isFresh(at: time), var msc = next.msc else { return (nil, next.time) }
        // Never the refresh of the frame before, nor sooner than the cap allows.
        if let previous = newestAimed { msc = max(msc, previous + divisor) }
        return (msc, timeline.time(of: msc) ?? next.time)
    }
}
