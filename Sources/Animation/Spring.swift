import Foundation

/// A damped harmonic oscillator of unit mass pulling a value to its target:
/// x'' = −stiffness·x − damping·x', with x the displacement from the target.
///
/// Two ways to give one:
/// - `Spring(response:dampingRatio:)`: the undamped period in seconds (SwiftUI's and Wave's
///   `response`): ω₀ = 2π / response.
/// - `Spring(duration:dampingRatio:)`: UIKit's `animate(withDuration:delay:usingSpringWithDamping:…)`.
///   The natural frequency is chosen so that, released from rest, the displacement's envelope has
///   decayed to `settleFraction` (0.1 %) of its start exactly when `duration` ends:
///     ζ < 1: e^(−ζω₀t) / √(1−ζ²) = 0.001 at t = duration,
///     ζ = 1: (1 + ω₀t)·e^(−ω₀t) = 0.001,
///     ζ > 1: the overdamped solution itself = 0.001,
///   solved for ω₀ by bisection. An animation with such a spring stops and rests exactly on its
///   target when the duration ends (the residual 0.1 % is snapped away).
/// Either way stiffness = ω₀² and damping = 2ζω₀.
public struct Spring: Equatable, Sendable {
    /// The share of the starting displacement left when a duration-given spring ends.
    public static let settleFraction = 0.001

    public let angularFrequency: Double   // ω₀, rad/s
    public let dampingRatio: Double       // ζ
    /// When the animation ends and snaps to its target; nil: when it comes to rest.
    public let settleDuration: Double?

    public var stiffness: Double { angularFrequency * angularFrequency }
    public var damping: Double { 2 * dampingRatio * angularFrequency }

    public init(response: Double, dampingRatio: Double) {
        precondition(response > 0 && dampingRatio > 0, "a spring needs a positive response and damping ratio")
        angularFrequency = 2 * .pi / response
        self.dampingRatio = dampingRatio
        settleDuration = nil
    }

    public init(duration: Double, dampingRatio: Double) {
        precondition(duration > 0 && dampingRatio > 0, "a spring needs a positive duration and damping ratio")
        self.dampingRatio = dampingRatio
        settleDuration = duration
        var lo = 1e-3, hi = 1e4
        for _ in 0..<200 {
            let mid = (lo * hi).squareRoot()   // bisect in log space: ω₀ spans decades
            if Spring.envelope(omega: mid, zeta: dampingRatio, t: duration) > Spring.settleFraction { lo = mid } else { hi = mid }
        }
        angularFrequency = hi
    }

    /// The largest displacement, as a share of the start, that a spring released from rest can still
    /// have at time `t`.
    static func envelope(omega: Double, zeta: Double, t: Double) -> Double {
        if zeta < 1 { return exp(-zeta * omega * t) / (1 - zeta * zeta).squareRoot() }
        if zeta == 1 { return (1 + omega * t) * exp(-omega * t) }
        return abs(Spring(omega: omega, zeta: zeta).coefficients(at: t).position.fromDisplacement)
    }

    private init(omega: Double, zeta: Double) {
        angularFrequency = omega
        dampingRatio = zeta
        settleDuration = nil
    }

    /// The closed-form solution is linear in the starting displacement x₀ and velocity v₀:
    ///   x(t) = x₀·p₀(t) + v₀·p₁(t),  v(t) = x₀·q₀(t) + v₀·q₁(t).
    /// These are the four coefficients at `t` seconds after the start.
    public func coefficients(at t: Double) -> (position: (fromDisplacement: Double, fromVelocity: Double),
                                               velocity: (fromDisplacement: Double, fromVelocity: Double)) {
        let w = angularFrequency, z = dampingRatio
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let e = exp(-z * w * t), c = cos(wd * t), s = sin(wd * t)
            return ((e * (c + z * w / wd * s), e * s / wd),
                    (-e * w * w / wd * s, e * (c - z * w / wd * s)))
        } else if z == 1 {
            let e = exp(-w * t)
            return ((e * (1 + w * t), e * t), (-e * w * w * t, e * (1 - w * t)))
        } else {
            let r = w * (z * z - 1).squareRoot()
            let r1 = -z * w + r, r2 = -z * w - r     // both negative
            let e1 = exp(r1 * t), e2 = exp(r2 * t)
            // x = A e^(r1 t) + B e^(r2 t), with A + B = x₀ and r1 A + r2 B = v₀.
            let d = r1 - r2
            return (((-r2 * e1 + r1 * e2) / d, (e1 - e2) / d),
                    ((-r2 * r1 * e1 + r1 * r2 * e2) / d, (r1 * e1 - r2 * e2) / d))
        }
    }

    /// Displacement and velocity `t` seconds after starting at displacement `x0` with velocity `v0`.
    public func state<Value: Animatable>(displacement x0: Value, velocity v0: Value, at t: Double) -> (displacement: Value, velocity: Value) {
        let k = coefficients(at: t)
        return (x0 * k.position.fromDisplacement + v0 * k.position.fromVelocity,
                x0 * k.velocity.fromDisplacement + v0 * k.velocity.fromVelocity)
    }
}
