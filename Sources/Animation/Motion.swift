import Foundation

/// How a value travels to its target.
public enum Motion: Equatable, Sendable {
    /// A spring; it keeps the value's velocity when the target changes mid-flight.
    case spring(Spring)
    /// A fixed-duration curve (seconds).
    case curve(TimingCurve, duration: Double)
    /// Momentum that runs down by itself (the target is where it comes to rest).
    case decay(Decay)

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

/// UIScrollView-style deceleration: the speed is multiplied by `rate` every millisecond
/// (0.998: `UIScrollView.DecelerationRate.normal`), and the motion stops below `minimumSpeed`.
public struct Decay: Equatable, Sendable {
    public static let normalRate = 0.998

    public let rate: Double
    /// Units per second under which the motion ends.
    public let minimumSpeed: Double

    public init(rate: Double = Decay.normalRate, minimumSpeed: Double = 10) {
        precondition(rate > 0 && rate < 1, "a decay rate is between 0 and 1")
        self.rate = rate
        self.minimumSpeed = minimumSpeed
    }

    /// ln(rate) per second.
    var exponent: Double { 1000 * log(rate) }

    /// Distance covered `t` seconds after starting at speed `v0` (any units per second):
    /// ∫ v0·rate^(1000 s) ds = v0·(rate^(1000 t) − 1) / (1000 ln rate).
    public func distance<Value: Animatable>(velocity v0: Value, at t: Double) -> Value {
        v0 * ((exp(exponent * t) - 1) / exponent)
    }

    public func velocity<Value: Animatable>(_ v0: Value, at t: Double) -> Value { v0 * exp(exponent * t) }

    /// When the speed falls to `minimumSpeed` (0 if it starts below).
    public func duration(fromSpeed speed: Double) -> Double {
        speed <= minimumSpeed ? 0 : log(minimumSpeed / speed) / exponent
    }

    /// Where a motion at `v0` comes to rest (its total distance).
    public func restingDistance<Value: Animatable>(velocity v0: Value) -> Value {
        distance(velocity: v0, at: duration(fromSpeed: v0.magnitude))
    }
}
