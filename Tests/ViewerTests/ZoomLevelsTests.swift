import Geometry
import Testing
import Viewer

/// The zoom-level calculator: limits, rubber band, double-tap target and offsets.
@Suite struct ZoomLevelsTests {
    /// A 4000×3000 photo in an 800×500 window: fit is 666.7×500, and 100 % is 6× fit.
    let levels = ZoomLevels(fitSize: Size(width: 4000.0 / 6, height: 500), viewport: Size(width: 800, height: 500),
                            photoPixels: Size(width: 4000, height: 3000))

    @Test func limitsAreFitAndFourTimesFitOrOneHundredPercent() {
        #expect(levels.minimum == 1)
        #expect(abs(levels.actualSize - 6) < 1e-9)
        #expect(abs(levels.maximum - 6) < 1e-9, "100 % is reachable")
        let small = ZoomLevels(fitSize: Size(width: 800, height: 500), viewport: Size(width: 800, height: 500),
                               photoPixels: Size(width: 400, height: 250))
        #expect(small.maximum == 4, "4× fit even when 100 % is less than fit")
        #expect(small.clamped(0.3) == 1 && small.clamped(9) == 4 && small.clamped(2) == 2)
    }

    @Test func pinchPastALimitResistsMoreAndMoreButKeepsMoving() {
        let m = levels.maximum
        #expect(levels.banded(3) == 3, "inside the limits the fingers rule")
        let past = [1.2, 1.5, 2, 4, 10].map { levels.banded(m * $0) }
        #expect(zip(past, past.dropFirst()).allSatisfy { $0 < $1 }, "monotonic")
        #expect(past.allSatisfy { $0 > m && $0 < 2 * m }, "never past twice the limit: \(past)")
        #expect(past[0] - m < 0.2 * m, "resists")
        let below = [0.9, 0.5, 0.1].map { levels.banded($0) }
        #expect(below.allSatisfy { $0 < 1 && $0 > 0.5 }, "\(below)")
        #expect(zip(below, below.dropFirst()).allSatisfy { $0 > $1 })
        for raw in [0.2, 0.8, 1, 3, 7, 20] {
            #expect(abs(levels.unbanded(levels.banded(raw)) - raw) < 1e-6 * raw, "unbanded inverts banded at \(raw)")
        }
    }

    @Test func doubleTapGoesToThreeTimesFitAndBack() {
        #expect(levels.doubleTapTarget(from: 1) == 3)
        #expect(levels.doubleTapTarget(from: 3) == 1)
        #expect(levels.doubleTapTarget(from: 1.5) == 1, "any zoom goes back to fit")
    }

    @Test func aPhotoSmallerThanTheViewportIsCentredAndALargerOneScrolls() {
        let fit = levels.offsetRange(at: 1)
        #expect(abs(fit.x.lowerBound + 400.0 / 6) < 1e-9, "(800 − 666.7) / 2 of black either side")
        #expect(fit.x.lowerBound == fit.x.upperBound, "centred across")
        #expect(fit.y == 0...0)
        let zoomed = levels.offsetRange(at: 3)
        #expect(abs(zoomed.x.upperBound - (2000 - 800)) < 1e-9 && zoomed.x.lowerBound == 0)
        #expect(zoomed.y == 0...1000)
    }

    @Test func theOffsetKeepsThePointUnderTheFingers() {
        // At fit, window point (500, 200) shows photo point (500 + offset.x, 200) / 1.
        let start = Point(x: -400.0 / 6, y: 0)
        let end = levels.offset(moving: Point(x: 500, y: 200), to: Point(x: 500, y: 200), from: start, scale: 1, newScale: 2.5)
        // The same photo point, (500 − 66.7, 200) at fit, is at 2.5× that in the zoomed photo.
        #expect(abs((500 + end.x) / 2.5 - (500 + start.x)) < 1e-9)
        #expect(abs((200 + end.y) / 2.5 - 200) < 1e-9)
        let clamped = levels.clampedOffset(Point(x: -50, y: 5000), at: 2.5)
        #expect(clamped == Point(x: 0, y: 750))
    }
}
