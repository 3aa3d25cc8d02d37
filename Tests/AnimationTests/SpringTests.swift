import Foundation
import Testing
@testable import Animation
@testable import Geometry

/// A thing with animatable properties, as a scene node has.
final class Box {
    var x = 0.0
    var alpha = 1.0
    var center = Point.zero
    var frame = Rect.zero
    var transform = Transform2D.identity
}

/// The damped oscillator x'' = −ω²x − 2ζωx' written independently of `Spring`: amplitude–phase form
/// for the underdamped case, the textbook form for the critical one.
func reference(x0: Double, v0: Double, omega w: Double, zeta z: Double, t: Double) -> Double {
    if z < 1 {
        let wd = w * (1 - z * z).squareRoot()
        let b = (v0 + z * w * x0) / wd
        let amplitude = (x0 * x0 + b * b).squareRoot(), phase = atan2(b, x0)
        return amplitude * exp(-z * w * t) * cos(wd * t - phase)
    }
    return (x0 + (v0 + w * x0) * t) * exp(-w * t)
}

/// Fourth-order Runge–Kutta with a tiny step, for the overdamped case.
func integrate(x0: Double, v0: Double, omega w: Double, zeta z: Double, t: Double) -> Double {
    var x = x0, v = v0
    let steps = 20_000, h = t / Double(steps)
    func a(_ x: Double, _ v: Double) -> Double { -w * w * x - 2 * z * w * v }
    for _ in 0..<steps {
        let k1x = v, k1v = a(x, v)
        let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
        let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
        let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return x
}

@Suite struct SpringTests {
    @Test(arguments: [(0.8, 0.0), (0.5, 1200.0), (1.0, 0.0), (1.0, -800.0)])
    func animatorFollowsTheClosedFormOfTheDampedOscillator(zeta: Double, v0: Double) {
        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let box = Box()
        box.x = 300
        let spring = Spring(response: 0.55, dampingRatio: zeta)
        animator.animate(box, \.x, to: 100, with: .spring(spring), initialVelocity: v0)
        for frame in 1...90 {
            clock.advanceFrame()
            animator.tick()
            let t = Double(frame) / 60
            let expected = 100 + reference(x0: 200, v0: v0, omega: 2 * .pi / 0.55, zeta: zeta, t: t)
            if !animator.isAnimating { break }
            #expect(abs(box.x - expected) < 1e-6, "t = \(t): \(box.x) vs \(expected)")
        }
    }

    @Test func overdampedMatchesNumericalIntegration() {
        let spring = Spring(response: 0.4, dampingRatio: 1.6)
        for t in stride(from: 0.05, through: 1.0, by: 0.05) {
            let s = spring.state(displacement: 50.0, velocity: 300.0, at: t)
            let expected = integrate(x0: 50, v0: 300, omega: spring.angularFrequency, zeta: 1.6, t: t)
            #expect(abs(s.displacement - expected) < 1e-6, "t = \(t)")
        }
    }

    @Test func velocityIsTheDerivativeOfPosition() {
        for zeta in [0.3, 1.0, 2.0] {
            let spring = Spring(response: 0.5, dampingRatio: zeta)
            for t in [0.01, 0.1, 0.33, 0.7] {
                let h = 1e-6
                let ahead = spring.state(displacement: 10.0, velocity: -40.0, at: t + h).displacement
                let behind = spring.state(displacement: 10.0, velocity: -40.0, at: t - h).displacement
                let v = spring.state(displacement: 10.0, velocity: -40.0, at: t).velocity
                #expect(abs(v - (ahead - behind) / (2 * h)) < 1e-4, "ζ \(zeta) t \(t)")
            }
        }
    }

    /// UIKit-style (duration, damping ratio): 0.1 % of the start is left at the duration; then it
    /// rests on the target.
    @Test(arguments: [(0.5, 0.8), (0.5, 0.9), (0.25, 1.0), (0.4, 1.5)])
    func durationSpringRestsOnTheTargetWhenTheDurationEnds(duration: Double, zeta: Double) {
        let spring = Spring(duration: duration, dampingRatio: zeta)
        #expect(abs(Spring.envelope(omega: spring.angularFrequency, zeta: zeta, t: duration) - 0.001) < 1e-9)
        #expect(spring.stiffness == spring.angularFrequency * spring.angularFrequency)
        #expect(spring.damping == 2 * zeta * spring.angularFrequency)

        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let box = Box()
        var ends: [AnimationEnd] = []
        animator.animate(box, \.x, to: 1000, with: .spring(spring)) { ends.append($0) }
        clock.advance(by: duration - 1e-4)
        animator.tick()
        #expect(box.x != 1000)
        #expect(abs(box.x - 1000) <= 1.05, "about 0.1 % of the 1000 travelled is left: \(box.x)")
        #expect(animator.isAnimating)
        clock.advance(by: 1e-4)
        animator.tick()
        #expect(box.x == 1000)
        #expect(!animator.isAnimating)
        #expect(ends == [.finished])
    }

    @Test func seedSpringsHaveTheStatedFrequencies() {
        // ζω₀·0.5 s = ln(1000 / √(1 − 0.64)) for the zoom-in spring.
        let zoomIn = Spring(duration: 0.5, dampingRatio: 0.8)
        #expect(abs(zoomIn.angularFrequency - log(1000 / 0.6) / (0.8 * 0.5)) < 1e-9)
        #expect(abs(Spring(response: 0.5, dampingRatio: 1).angularFrequency - 4 * .pi) < 1e-12)
    }

    /// Changing the target mid-flight keeps the position and the velocity: no jump, no kink.
    @Test func retargetingKeepsPositionAndVelocity() throws {
        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let box = Box()
        box.center = Point(x: 0, y: 0)
        var firstEnd: [AnimationEnd] = []
        animator.animate(box, \.center, to: Point(x: 400, y: 200), with: .spring(duration: 0.5, dampingRatio: 0.8)) {
            firstEnd.append($0)
        }
        for _ in 0..<9 { clock.advanceFrame(); animator.tick() }
        let position = box.center
        let velocity = try #require(animator.velocity(of: box, \.center))
        #expect(velocity.magnitude > 100)

        animator.animate(box, \.center, to: Point(x: -300, y: 50), with: .spring(duration: 0.5, dampingRatio: 0.8))
        #expect(firstEnd == [.retargeted])
        animator.tick()
        #expect((box.center - position).magnitude < 1e-9)
        let after = try #require(animator.velocity(of: box, \.center))
        #expect((after - velocity).magnitude < 1e-9)

        // The next frame moves on from there, still along the old velocity at first.
        clock.advance(by: 0.001)
        animator.tick()
        let step = (box.center - position) * 1000
        #expect((step - velocity).magnitude < velocity.magnitude * 0.1)
    }

    /// The curve is evaluated in closed form, so 30, 60 and 144 Hz sample the same curve.
    @Test func frameRateDoesNotChangeTheCurve() {
        func samples(fps: Double) -> [Rect] {
            let clock = ManualClock(fps: fps)
            let animator = Animator(clock: clock)
            let box = Box()
            box.frame = Rect(x: 10, y: 10, width: 100, height: 100)
            animator.animate(box, \.frame, to: Rect(x: 0, y: 0, width: 800, height: 600),
                             with: .spring(duration: 0.5, dampingRatio: 0.8), initialVelocity: Rect(x: 0, y: 900, width: 0, height: 0))
            var out: [Rect] = []
            let framesPerSixth = Int((fps / 6).rounded())
            for frame in 1...(framesPerSixth * 5) {
                clock.advanceFrame()
                animator.tick()
                if frame % framesPerSixth == 0 { out.append(box.frame) }
            }
            return out
        }
        let at30 = samples(fps: 30), at60 = samples(fps: 60), at144 = samples(fps: 144)
        for (a, (b, c)) in zip(at30, zip(at60, at144)) {
            #expect((a - b).magnitude < 1e-6 && (a - c).magnitude < 1e-6, "\(a) \(b) \(c)")
        }
    }

    @Test func responseSpringComesToRestAndFinishesOnce() {
        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let box = Box()
        var ends: [AnimationEnd] = []
        animator.animate(box, \.alpha, to: 0, with: .spring(response: 0.3, dampingRatio: 1)) { ends.append($0) }
        var frames = 0
        while animator.isAnimating && frames < 600 { clock.advanceFrame(); animator.tick(); frames += 1 }
        #expect(box.alpha == 0)
        #expect(frames < 60, "a 0.3 s critically damped spring rests within a second")
        animator.tick()
        #expect(ends == [.finished])
    }
}
