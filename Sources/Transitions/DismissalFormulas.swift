import Geometry

/// The seeds' interactive-dismissal formulas (DESIGN point 4), pure: with dy = max(translation.y, 0)
/// and H the view's height,
///   background alpha = 1 − min(dy / (H/4), 1),  tab bar alpha = 1 − background alpha,
///   scale = 1 − 0.5·min(dy / (H/2), 1),
///   centre = anchor + translation − (0, height·(1 − scale)/2),
/// where anchor is the centre of the photo's fit frame and height the scaled photo's height.
public struct DismissalFormulas: Equatable, Sendable {
    /// The smallest the photo gets while pulled down.
    public static let minimumScale = 0.5

    public let viewHeight: Double
    public let anchor: Point
    /// The photo's unscaled (fit) height.
    public let photoHeight: Double

    public init(viewHeight: Double, anchor: Point, photoHeight: Double) {
        self.viewHeight = viewHeight
        self.anchor = anchor
        self.photoHeight = photoHeight
    }

    public func backgroundAlpha(_ translation: Point) -> Double {
        1 - min(max(translation.y, 0) / (viewHeight / 4), 1)
    }

    public func tabBarAlpha(_ translation: Point) -> Double { 1 - backgroundAlpha(translation) }

    public func scale(_ translation: Point) -> Double {
        1 - (1 - DismissalFormulas.minimumScale) * min(max(translation.y, 0) / (viewHeight / 2), 1)
    }

    public func center(_ translation: Point) -> Point {
        let s = scale(translation)
        return Point(x: anchor.x + translation.x, y: anchor.y + translation.y - photoHeight * s * (1 - s) / 2)
    }

    /// d(scale)/dt for a finger moving at `velocity` (px/s): the scale follows dy only below H/2.
    public func scaleVelocity(_ translation: Point, velocity: Point) -> Double {
        let dy = translation.y
        guard dy > 0, dy < viewHeight / 2 else { return 0 }
        return -(1 - DismissalFormulas.minimumScale) / (viewHeight / 2) * velocity.y
    }

    /// The centre's velocity for a finger moving at `velocity`: d/dt of `center`.
    public func centerVelocity(_ translation: Point, velocity: Point) -> Point {
        let s = scale(translation), ds = scaleVelocity(translation, velocity: velocity)
        // d/dt [ h·s·(1 − s)/2 ] = h·(1 − 2s)·ṡ/2
        return Point(x: velocity.x, y: velocity.y - photoHeight * (1 - 2 * s) * ds / 2)
    }

    /// The seeds' release rule: moving up, or above the anchor, cancels; anything else finishes.
    public func releaseFinishes(translation: Point, velocity: Point) -> Bool {
        !(velocity.y < 0 || center(translation).y < anchor.y)
    }
}
