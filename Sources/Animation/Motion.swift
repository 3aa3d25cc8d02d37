/// How a value travels to its target.
public enum Motion: Equatable, Sendable {
    /// A spring; it keeps the value's velocity when the target changes mid-flight.
    case spring(Spring)
    /// A fixed-duration curve (seconds).
    case curve(TimingCurve, duration: Double)

    /// UIKit's `animate(withDuration:usingSpringWithDamping:)`.
    public static func spring(duration: Double, dampingRatio: Double) -> Motion {
        .spring(Spring(duration: duration, dampingRatio: dampingRatio))
    }

    public static func spring(response: Double, dampingRatio: Double) -> Motion {
        .spring(Spring(response: response, dampingRatio: dampingRatio))
    }
}

/// Why an animation's completion ran. It runs exactly once, whichever it is.
public enum AnimationEnd: Equatable, Sendable {
    /// The value reached its target and rests there.
    case finished
    /// `cancel` stopped it where it was.
    case cancelled
    /// A new animation of the same property took over (from the same position and velocity).
    case retargeted
}
