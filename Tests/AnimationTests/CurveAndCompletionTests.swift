import Testing
@testable import Animation
@testable import Geometry

@Suite struct TimingCurveTests {
    @Test func curvesHaveTheirShapes() {
        for x in stride(from: 0.0, through: 1.0, by: 0.1) {
            #expect(abs(TimingCurve.linear.progress(at: x) - x) < 1e-9)
            #expect(TimingCurve.easeOut.progress(at: x) >= x - 1e-9)
            #expect(TimingCurve.easeIn.progress(at: x) <= x + 1e-9)
            #expect(abs(TimingCurve.easeInOut.progress(at: x) + TimingCurve.easeInOut.progress(at: 1 - x) - 1) < 1e-6)
        }
        #expect(TimingCurve.easeOut.progress(at: 0) == 0 && TimingCurve.easeOut.progress(at: 1) == 1)
        #expect(abs(TimingCurve.easeInOut.progress(at: 0.5) - 0.5) < 1e-9)
        // Ease-out (0, 0, 0.58, 1) a quarter of the way in time: 0.378138 (bisection in Python).
        #expect(abs(TimingCurve.easeOut.progress(at: 0.25) - 0.378138) < 1e-5)
        // It starts at 1 / 0.58 of the average speed and ends at rest.
        #expect(abs(TimingCurve.easeOut.slope(at: 0) - 1 / 0.58) < 1e-3)
        #expect(abs(TimingCurve.easeOut.slope(at: 1)) < 1e-3)
        #expect(abs(TimingCurve.linear.slope(at: 0.3) - 1) < 1e-9)
    }

    @Test func curveAnimationTakesExactlyItsDuration() {
        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let box = Box()
        var ends: [AnimationEnd] = []
        animator.animate(box, \.x, to: 100, with: .curve(.easeOut, duration: 0.25)) { ends.append($0) }
        for _ in 0..<14 { clock.advanceFrame(); animator.tick() }
        #expect(box.x > 90 && box.x < 100)   // 14/15 of the way in time
        clock.advanceFrame()
        animator.tick()
        #expect(box.x == 100)
        #expect(ends == [.finished])
        #expect(!animator.isAnimating)
    }
}

@Suite struct CompletionTests {
    @Test func cancelStopsWhereItIsAndCompletesOnce() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        var ends: [AnimationEnd] = []
        animator.animate(box, \.x, to: 100, with: .curve(.linear, duration: 1)) { ends.append($0) }
        clock.advance(by: 0.5)
        animator.tick()
        animator.cancel(box, \.x)
        clock.advance(by: 0.5)
        animator.tick()
        animator.cancel(box, \.x)
        #expect(box.x == 50)
        #expect(ends == [.cancelled])
        #expect(!animator.isAnimating)
    }

    @Test func completionCanStartTheNextAnimation() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        var log: [String] = []
        animator.animate(box, \.x, to: 10, with: .curve(.linear, duration: 0.1)) { end in
            log.append("first \(end)")
            animator.animate(box, \.x, to: 0, with: .curve(.linear, duration: 0.1)) { log.append("second \($0)") }
        }
        for _ in 0..<30 { clock.advanceFrame(); animator.tick() }
        #expect(log == ["first finished", "second finished"])
        #expect(box.x == 0)
    }

    /// A completion that sets a property whose own animation ends in the same tick (a cross-fade's
    /// landing puts the grid cell's alpha back to 1) has the last word, whatever order the
    /// animations sit in: every value of the tick is applied before any completion runs.
    @Test func aCompletionHasTheLastWordOverAnAnimationEndingInTheSameTick() {
        let clock = ManualClock(fps: 60)
        let animator = Animator(clock: clock)
        let pairs = (0..<40).map { _ in (copy: Box(), cell: Box()) }
        for (i, pair) in pairs.enumerated() {
            pair.cell.alpha = 1
            // Half the cells start their fade before the copy's, half after.
            let fadeCell = { animator.animate(pair.cell, \.alpha, to: 0, with: .curve(.easeInOut, duration: 0.15)) }
            if i.isMultiple(of: 2) { fadeCell() }
            animator.animate(pair.copy, \.alpha, to: 1, with: .curve(.easeInOut, duration: 0.15)) { _ in pair.cell.alpha = 1 }
            if !i.isMultiple(of: 2) { fadeCell() }
        }
        for _ in 0..<10 { clock.advanceFrame(); animator.tick() }
        #expect(!animator.isAnimating)
        #expect(pairs.allSatisfy { $0.cell.alpha == 1 && $0.copy.alpha == 1 })
    }

    @Test func independentPropertiesAnimateTogether() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        animator.animate(box, \.x, to: 10, with: .curve(.linear, duration: 0.5))
        animator.animate(box, \.alpha, to: 0, with: .curve(.linear, duration: 0.5))
        animator.animate(box, \.transform, to: Transform2D(scale: 2), with: .curve(.linear, duration: 0.5))
        clock.advance(by: 0.25)
        animator.tick()
        #expect(box.x == 5 && box.alpha == 0.5 && box.transform == Transform2D(scale: 1.5))
    }

    @Test func slowMotionStretchesTimeWithoutAJump() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        animator.animate(box, \.x, to: 100, with: .curve(.linear, duration: 1))
        clock.advance(by: 0.5)
        animator.tick()
        #expect(box.x == 50)
        animator.setSlowdown(10)
        animator.tick()
        #expect(box.x == 50)
        clock.advance(by: 1)   // a tenth of a second of animation time
        animator.tick()
        #expect(abs(box.x - 60) < 1e-9)
        animator.setSlowdown(1)
        clock.advance(by: 0.4)
        animator.tick()
        #expect(box.x == 100)
    }
}

@Suite struct DelayTests {
    @Test func delayedAnimationHoldsStillThenRunsItsFullCurve() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        animator.animate(box, \.x, to: 100, with: .curve(.linear, duration: 0.5), delay: 0.25)
        clock.advance(by: 0.2)
        animator.tick()
        #expect(box.x == 0)
        #expect(animator.isAnimating)
        clock.advance(by: 0.3)   // 0.25 s into the curve
        animator.tick()
        #expect(abs(box.x - 50) < 1e-9)
        clock.advance(by: 0.25)
        animator.tick()
        #expect(box.x == 100 && !animator.isAnimating)
    }
}
