import Foundation
import Testing
@testable import Geometry

@Suite struct AffineTransformTests {
    @Test func concatenationAppliesLeftThenRight() {
        let t = AffineTransform(scale: 2).concatenating(AffineTransform(translationX: 10, y: -5))
        #expect(t.apply(to: Point(x: 3, y: 4)) == Point(x: 16, y: 3))
    }

    @Test func inverseUndoes() throws {
        let t = AffineTransform(rotationAngle: 0.7).concatenating(AffineTransform(scaleX: 2, y: 0.5))
            .concatenating(AffineTransform(translationX: 12, y: 30))
        let p = Point(x: -7, y: 11)
        let back = try #require(t.inverted).apply(to: t.apply(to: p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
    }

    @Test func zeroScaleHasNoInverse() {
        #expect(AffineTransform(scale: 0).inverted == nil)
    }
}
