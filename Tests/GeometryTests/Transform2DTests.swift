import Foundation
import Testing
@testable import Geometry

@Suite struct AffineTransformTests {
    @Test func concatenationAppliesLeftThenRight() {
        let t = Transform2D(scale: 2).concatenating(Transform2D(translationX: 10, y: -5))
        #expect(t.apply(to: Point(x: 3, y: 4)) == Point(x: 16, y: 3))
    }

    @Test func inverseUndoes() throws {
        let t = Transform2D(rotationAngle: 0.7).concatenating(Transform2D(scaleX: 2, y: 0.5))
            .concatenating(Transform2D(translationX: 12, y: 30))
        let p = Point(x: -7, y: 11)
        let back = try #require(t.inverted).apply(to: t.apply(to: p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
    }

    @Test func zeroScaleHasNoInverse() {
        #expect(Transform2D(scale: 0).inverted == nil)
    }
}
