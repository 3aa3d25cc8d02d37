import Foundation

/// Where animation time comes from. The window loop uses `MonotonicClock`; tests and headless runs
/// use `ManualClock`, which moves only when told, so every frame is reproducible.
public protocol FrameClock: AnyObject {
    /// Seconds on a monotonic time line.
    var now: Double { get }
    /// Seconds between frames (1 / fps).
    var frameInterval: Double { get }
}

/// The system's monotonic clock (CLOCK_MONOTONIC), ticking at `fps` while something animates.
public final class MonotonicClock: FrameClock {
    /// The output's rate may change (the window moved to another).
    public var frameInterval: Double

    public init(fps: Double = 60) { frameInterval = 1 / fps }

    public var now: Double { MonotonicClock.seconds() }

    /// CLOCK_MONOTONIC, s: the clock X's Present and Wayland's presentation times are on.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A clock that stands still until `advance` moves it.
public final class ManualClock: FrameClock {
    public private(set) var now: Double
    public let frameInterval: Double

    public init(fps: Double = 60, start: Double = 0) {
        frameInterval = 1 / fps
        now = start
    }

    public func advance(by seconds: Double) { now += seconds }

    /// Moves on by one frame.
    public func advanceFrame() { now += frameInterval }
}
