/// A point in a coordinate space measured in pixels (y grows downward, as in X11 and UIKit).
public struct Point: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }

    /// Distance from the origin.
    public var magnitude: Double { (x * x + y * y).squareRoot() }

    public var description: String { "(\(x), \(y))" }
}
