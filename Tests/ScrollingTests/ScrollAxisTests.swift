import Testing
@testable import Animation
@testable import Scrolling

@Suite struct ScrollAxisTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator
    let axis: ScrollAxis

    init() {
        animator = Animator(clock: clock)
        axis = ScrollAxis(animator: animator)
        axis.setRange(0...2000, viewport: 600)
    }

    /// Runs frames until everything rests (at most 10 s), `eachFrame` after each; returns the frames taken.
    @discardableResult
    func runToRest(eachFrame: () -> Void = {}) -> Int {
        var frames = 0
        while axis.isMoving && frames < 600 {
            clock.advanceFrame()
            animator.tick()
            axis.didTick()
            eachFrame()
            frames += 1
        }
        return frames
    }

    @Test func dragFollowsTheFinger() {
        axis.beginDrag()
        axis.drag(translation: -150)
        #expect(axis.offset == 150)
        axis.drag(translation: -40)
        #expect(axis.offset == 40)
    }

    @Test func rubberBandsPastTheEndsAndSpringsBack() {
        axis.beginDrag()
        axis.drag(translation: 300)            // pulling down at the top
        let shown = axis.offset
        #expect(shown < 0)
        #expect(-shown < 300 * 0.55, "resists: moves less than the finger")
        #expect(abs(-shown - RubberBand.offset(forOvershoot: 300, dimension: 600)) < 1e-9)
        axis.endDrag(velocity: 0)
        #expect(axis.isMoving)
        let frames = runToRest()
        #expect(axis.offset == 0)
        #expect(frames < 90)
    }

    /// The bounce ends once the content is a fraction of a pixel from the edge: no frame is drawn for a
    /// move nobody could see (at 0.001 px, the last 23 frames of this one were within 0.1 px).
    @Test func aBounceRestsOnceTheEdgeIsUnderAPixelAway() {
        axis.beginDrag()
        axis.drag(translation: 300)
        axis.endDrag(velocity: 0)
        var nearlyThere = 0
        runToRest { if axis.isMoving && abs(axis.offset) < 0.1 { nearlyThere += 1 } }
        #expect(axis.offset == 0)
        #expect(nearlyThere == 0, "frames drawn within 0.1 px of the edge")
    }

    @Test func rubberBandInvertsForAGrabMidBounce() {
        for y in [1.0, 50, 200, 450] {
            let x = RubberBand.overshoot(forOffset: y, dimension: 600)
            #expect(abs(RubberBand.offset(forOvershoot: x, dimension: 600) - y) < 1e-9)
        }
    }

    @Test func releaseCoastsWithMomentumAndDecelerates() {
        axis.setOffset(500)
        axis.beginDrag()
        axis.drag(translation: -100)
        axis.endDrag(velocity: -1500)          // flick up: content scrolls on
        runToRest()
        // UIScrollView's projection: v / (1000·ln(1/0.998)) ≈ 749 px for 1500 px/s, less the tail under 10 px/s.
        let coasted = axis.offset - 600
        #expect(coasted > 700 && coasted < 750, "\(coasted)")
    }

    @Test func flickScrollsFartherThanASlowDragOfTheSameLength() {
        axis.setOffset(200)
        axis.beginDrag(); axis.drag(translation: -120); axis.endDrag(velocity: -40)
        runToRest()
        let slow = axis.offset
        axis.setOffset(200)
        axis.beginDrag(); axis.drag(translation: -120); axis.endDrag(velocity: -2500)
        runToRest()
        #expect(axis.offset > slow + 500)
    }

    @Test func momentumIntoAnEdgeBouncesWithoutAJump() {
        axis.setOffset(1900)
        axis.beginDrag(); axis.drag(translation: -50); axis.endDrag(velocity: -3000)
        var previous = axis.offset, maxStep = 0.0, peak = axis.offset
        for _ in 0..<300 {
            clock.advanceFrame(); animator.tick(); axis.didTick()
            maxStep = max(maxStep, abs(axis.offset - previous))
            peak = max(peak, axis.offset)
            previous = axis.offset
        }
        #expect(peak > 2000, "overshoots the end")
        #expect(peak < 2000 + 300)
        #expect(axis.offset == 2000, "and settles on it")
        #expect(maxStep <= 3000 / 60 + 1, "never moves faster than the release speed")
    }

    @Test func grabbingStopsMomentum() {
        axis.setOffset(100)
        axis.beginDrag(); axis.drag(translation: -20); axis.endDrag(velocity: -2000)
        for _ in 0..<10 { clock.advanceFrame(); animator.tick() }
        let held = axis.offset
        axis.beginDrag()
        clock.advance(by: 0.5); animator.tick()
        #expect(axis.offset == held)
    }

    @Test func wheelStepsGlideAndAddUp() {
        axis.scrollSmoothly(by: 60)
        clock.advanceFrame(); animator.tick()
        #expect(axis.offset > 0 && axis.offset < 60)
        axis.scrollSmoothly(by: 60)
        runToRest()
        #expect(axis.offset == 120)
        axis.scrollSmoothly(by: -1000)
        runToRest()
        #expect(axis.offset == 0, "stays within the range")
    }

    /// A zoom takes a coasting axis along: it heads for the new place without losing its speed.
    @Test func animateKeepsTheSpeedOfACoastingAxis() throws {
        axis.beginDrag()
        axis.drag(translation: -100)
        axis.endDrag(velocity: -1500)   // coasting toward larger offsets at 1500 px/s
        for _ in 0..<3 { clock.advanceFrame(); animator.tick() }
        let speed = try #require(animator.velocity(of: axis, \.offset))
        let before = axis.offset
        axis.animate(to: 1500, with: .spring(response: 0.35, dampingRatio: 1))
        #expect(axis.offset == before)
        let taken = try #require(animator.velocity(of: axis, \.offset))
        #expect(abs(taken - speed) < 1e-6, "starts at the speed it had: \(taken) vs \(speed)")
        runToRest()
        #expect(axis.offset == 1500)
    }

    @Test func stopLeavesTheContentWhereItIs() {
        axis.beginDrag()
        axis.drag(translation: -100)
        axis.endDrag(velocity: -1500)
        clock.advanceFrame()
        animator.tick()
        let here = axis.offset
        axis.stop()
        #expect(!axis.isMoving)
        runToRest()
        #expect(axis.offset == here)
    }
}
