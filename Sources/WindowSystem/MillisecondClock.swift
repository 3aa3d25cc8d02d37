import Glibc

/// The 32-bit millisecond clocks that X servers and Wayland compositors stamp input with: on this
/// machine both count CLOCK_MONOTONIC, which is checked on each use, as far as it can be.
public enum MillisecondClock {
    /// An event's time (its source's milliseconds, as seconds) on CLOCK_MONOTONIC; nil when the source's
    /// clock is plainly another (a remote display): the event would be over 10 s old or in the future.
    public static func monotonicTime(ofEventTime seconds: Double) -> Double? {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let now = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        // Compared modulo 2³²: an event a moment ago. (A few ms ahead of ours is rounding.)
        let ago = Int32(bitPattern: UInt32(truncatingIfNeeded: Int64(now * 1000)) &- UInt32(truncatingIfNeeded: Int64((seconds * 1000).rounded())))
        guard ago > -5, ago < 10_000 else { return nil }
        return now - Double(max(0, ago)) / 1000
    }
}
