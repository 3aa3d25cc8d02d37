import Geometry

/// A value a spring or curve can move: a vector space (add, subtract, scale) with a length, so that
/// one closed-form solution serves scalars, points, sizes, rects and transforms alike.
public protocol Animatable: Equatable {
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, k: Double) -> Self
    static var zero: Self { get }
    /// Euclidean length of the value seen as a vector, in its own units.
    var magnitude: Double { get }
}

extension Double: Animatable {
    public var magnitude: Double { Swift.abs(self) }
}

extension Point: Animatable {}

extension Size: Animatable {
    public static func + (a: Size, b: Size) -> Size { Size(width: a.width + b.width, height: a.height + b.height) }
    public static func - (a: Size, b: Size) -> Size { Size(width: a.width - b.width, height: a.height - b.height) }
    public static func * (a: Size, k: Double) -> Size { Size(width: a.width * k, height: a.height * k) }
    public var magnitude: Double { (width * width + height * height).squareRoot() }
}

extension Rect: Animatable {
    public static func + (a: Rect, b: Rect) -> Rect { Rect(origin: a.origin + b.origin, size: a.size + b.size) }
    public static func - (a: Rect, b: Rect) -> Rect { Rect(origin: a.origin - b.origin, size: a.size - b.size) }
    public static func * (a: Rect, k: Double) -> Rect { Rect(origin: a.origin * k, size: a.size * k) }
    public var magnitude: Double { (origin.magnitude * origin.magnitude + size.magnitude * size.magnitude).squareRoot() }
}

/// Transforms move component-wise (as Core Animation interpolates a matrix it cannot decompose).
extension Transform2D: Animatable {
    public static func + (p: Transform2D, q: Transform2D) -> Transform2D {
        Transform2D(a: p.a + q.a, b: p.b + q.b, c: p.c + q.c, d: p.d + q.d, tx: p.tx + q.tx, ty: p.ty + q.ty)
    }
    public static func - (p: Transform2D, q: Transform2D) -> Transform2D { p + q * -1 }
    public static func * (p: Transform2D, k: Double) -> Transform2D {
        Transform2D(a: p.a * k, b: p.b * k, c: p.c * k, d: p.d * k, tx: p.tx * k, ty: p.ty * k)
    }
    public static var zero: Transform2D { Transform2D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0) }
    public var magnitude: Double { [a, b, c, d, tx, ty].reduce(0) { $0 + $1 * $1 }.squareRoot() }
}
