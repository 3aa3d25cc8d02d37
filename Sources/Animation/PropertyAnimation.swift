/// One value moving toward one target. Time is measured from `start`; the position and velocity
/// at any instant come from the closed form (springs) or the curve, never from summing steps, so
/// the result does not depend on the frame rate.
final class PropertyAnimation<Value: Animatable> {
    let from: Value
    let target: Value
    let initialVelocity: Value
    let motion: Motion
    let start: Double
    /// Springs given by response stop once within this distance of the target (and moving slower than
    /// ten times it per second).
    let restThreshold: Double

    init(from: Value, to target: Value, velocity: Value, motion: Motion, start: Double, restThreshold: Double) {
        self.from = from
        self.target = target
        initialVelocity = velocity
        self.motion = motion
        self.start = start
        self.restThreshold = restThreshold
    }

    /// Position, velocity (units per second) and whether the animation has ended at time `now`.
    func state(at now: Double) -> (value: Value, velocity: Value, done: Bool) {
        guard now >= start else { return (from, .zero, false) }   // still in its delay
        let t = now - start
        // Frame times are sums of 1/fps: an end that rounding put a hair later still counts.
        let slack = 1e-9
        switch motion {
        case .spring(let spring):
            if let end = spring.settleDuration, t >= end - slack { return (target, .zero, true) }
            let s = spring.state(displacement: from - target, velocity: initialVelocity, at: t)
            if spring.settleDuration == nil, s.displacement.magnitude < restThreshold,
               s.velocity.magnitude < restThreshold * 10 {
                return (target, .zero, true)
            }
            return (target + s.displacement, s.velocity, false)
        case .decay(let decay):
            guard t < decay.duration(fromSpeed: initialVelocity.magnitude) - slack else { return (target, .zero, true) }
            return (from + decay.distance(velocity: initialVelocity, at: t), decay.velocity(initialVelocity, at: t), false)
        case .curve(let curve, let duration):
            guard t < duration - slack else { return (target, .zero, true) }
            let x = t / duration
            let delta = target - from
            return (from + delta * curve.progress(at: x), delta * (curve.slope(at: x) / duration), false)
        }
    }
}
