/// The display's refreshes as its completed presents tell them: each one's counter (MSC) and time
/// (UST, seconds on CLOCK_MONOTONIC). From them, the refresh interval (the mode's, from RandR, where the
/// presents confirm it; otherwise measured from them), and what a frame drawn now can reach: the next
/// refresh, its counter and when it shows.
public struct DisplayTimeline: Sendable {
    /// Completions kept to measure the interval: the span of the last ones, not their median, because a
    /// fake refresh (Xvfb's, on a millisecond timer) alternates 16 and 17 ms around its 16.67.
    static let window = 32
    /// A rate the presents disagree with by more than this fraction is replaced by the measured one.
    static let tolerance = 0.02
    /// How long after its last completion the timeline always predicts counters, s.
    static let freshness = 0.25
    /// How long after it, at most, where the refreshes come on a grid and the interval is known well
    /// enough (`isFresh`), s: a display's counter may stop while it sleeps.
    static let longestPrediction = 2.0
    /// How late a completion on a grid is usually reported, s (Xvfb's: its timer's millisecond).
    static let reportJitter = 0.001
    /// The drift a prediction may gather, in refreshes, before it is no longer trusted.
    static let driftAllowed = 0.25

    /// Seconds between refreshes.
    public private(set) var interval: Double
    /// The last completed present: its refresh and when it showed.
    public var last: (msc: UInt64, time: Double)? { completions.last }
    /// The mode's rate, Hz, when RandR gave one (Xvfb's has none).
    public private(set) var modeRate: Double?
    /// Recent completions, in order.
    private var completions: [(msc: UInt64, time: Double)] = []

    /// `rate`: the mode's refresh rate if known; until presents complete, 60 Hz otherwise.
    public init(rate: Double?) {
        modeRate = rate.flatMap { $0 > 1 ? $0 : nil }
        interval = 1 / (modeRate ?? 60)
    }

    /// The output changed (moved to another, or its mode did): its rate, and measuring starts again.
    public mutating func modeChanged(rate: Double?) {
        let counts = countsWhileIdle
        self = DisplayTimeline(rate: rate)
        countsWhileIdle = counts
    }

    /// The refresh rate, Hz.
    public var rate: Double { 1 / interval }

    /// A present completed at refresh `msc`, shown at `time`.
    public mutating func completed(msc: UInt64, time: Double) {
        if let last, msc <= last.msc || time <= last.time {
            // The counter went back (another output, a server reset): measuring starts again.
            if msc < last.msc || time < last.time { completions = [] } else { return }
        }
        if let last, time - last.time > Self.freshness, msc > last.msc {
            // After a pause: whether the counter stood still for some of it, whatever the window said.
            stoodStill = Double(msc - last.msc) < (time - last.time) / interval - 0.5
        }
        completions.append((msc, time))
        if completions.count > Self.window { completions.removeFirst(completions.count - Self.window) }
        guard let first = completions.first, let last, last.msc - first.msc >= 8 else { return }
        let measured = onAGrid ? medianSlope : (last.time - first.time) / Double(last.msc - first.msc)
        guard measured > 0.001, measured < 1 else { return }
        measuredSpan = last.msc - first.msc
        if let modeRate, abs(measured * modeRate - 1) <= Self.tolerance {
            interval = 1 / modeRate
            modeConfirmed = true
        } else {
            interval = measured
            modeConfirmed = false
        }
    }

    /// Whether the display's counter goes on while no frame waits (said by the window): only then is it
    /// predicted past `freshness` (a counter that stands still while idle would hold a frame aimed past it).
    public var countsWhileIdle = false
    /// Whether it was seen to stand still over the last pause all the same.
    private var stoodStill = false
    /// The refreshes the kept completions span, once they measured the interval.
    private var measuredSpan: UInt64?
    /// Whether the presents confirmed the mode's rate (the interval is the mode's).
    private var modeConfirmed = false

    /// The interval as the kept completions' pairs at least half of them apart tell it, their median: a
    /// completion reported late (a server busy for a moment) moves only the pairs it is in, where the
    /// span of the first and the last moved by its lateness over the span.
    private var medianSlope: Double {
        let apart = max(1, completions.count / 2)
        var slopes: [Double] = []
        for i in completions.indices where i + apart < completions.count {
            for j in (i + apart)..<completions.count {
                let a = completions[i], b = completions[j]
                slopes.append((b.time - a.time) / Double(b.msc - a.msc))
            }
        }
        slopes.sort()
        return slopes[slopes.count / 2]
    }

    /// Whether the completions tell refreshes on a grid (X Present's, a compositor's presentation
    /// times), not only when a compositor repainted on a timer of its own (a headless sway's frame
    /// callbacks, 6.9–9 ms apart at "144 Hz"). Said with each completion (`PresentationClock.refreshesOnAGrid`).
    public var onAGrid = true

    /// Where the refreshes fall: the last completion's counter and its time. On a grid, that time as all
    /// the kept ones place it, each projected by the interval, their median: a completion's time can be
    /// late by the server's timer slack (1–2 ms under Xvfb), and now and then by much more, a server
    /// busy for a moment, after which their mean ran a few ms late for dozens of frames (sampled that
    /// much before they showed, and the first ones lost). Off a grid, the last completion itself: a
    /// compositor's repaint timer starts again at each repaint, so the next one comes an interval after
    /// the last (a headless sway's frames in a 144 Hz walk: 0.6 ms off at the mean, where the kept
    /// ones' mean placed them 2.3 ms off, and their median a repaint late).
    private var anchor: (msc: UInt64, time: Double)? {
        guard let last else { return nil }
        guard onAGrid else { return last }
        let projected = completions.map { $0.time + Double(last.msc - $0.msc) * interval }
        return (last.msc, projected.sorted()[projected.count / 2])
    }

    /// Whether the last completion is recent enough at `now` to predict refresh counters from: within
    /// `freshness`, or, on a grid whose counter goes on while idle, for as long as the
    /// interval's error adds up to under a quarter of a refresh. (The first frame after a pause then aims
    /// at a refresh, so that the next one can be begun before it shows: begun after, a 4K frame missed.)
    public func isFresh(at now: Double) -> Bool {
        guard let last else { return false }
        let elapsed = now - last.time
        if elapsed <= Self.freshness { return true }
        guard onAGrid, countsWhileIdle, !stoodStill, let span = measuredSpan else { return false }
        // The interval's error, per refresh: the mode's rate is exact where the presents confirm it;
        // a measured one is off by about the reports' jitter over the refreshes measured.
        let error = modeConfirmed ? interval * 1e-4 : Self.reportJitter / Double(span)
        return elapsed <= min(Self.longestPrediction, Self.driftAllowed * interval / error * interval)
    }

    /// The first refresh a frame finished at `now` can still reach (`margin` s before it, the time the
    /// server needs), after the last completed one: its counter and its time. With no completion yet,
    /// `now + margin` and no counter.
    public func nextRefresh(after now: Double, margin: Double = 0) -> (msc: UInt64?, time: Double) {
        guard let anchor else { return (nil, now + margin) }
        let elapsed = now + margin - anchor.time
        let ahead = max(1, UInt64(max(0, (elapsed / interval).rounded(.down))) + 1)
        return (anchor.msc + ahead, anchor.time + Double(ahead) * interval)
    }

    /// When refresh `msc` shows.
    public func time(of msc: UInt64) -> Double? {
        guard let anchor else { return nil }
        return anchor.time + (Double(msc) - Double(anchor.msc)) * interval
    }
}
