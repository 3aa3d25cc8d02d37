/// A fixed-duration progress curve, as UIKit's `UIView.AnimationOptions` curves: a cubic Bézier from
/// (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), where x is time and y progress.
public struct TimingCurve: Equatable, Sendable {
    public let x1, y1, x2, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// The steepest start `easeOut(initialSlope:)` takes without passing its end (its first control
    /// point then sits at progress 1).
    public static let maxEaseOutSlope = 3.0

    /// An ease-out that leaves at `slope` (progress per unit of time fraction) instead of its own
    /// 1/0.58: a motion already under way keeps its speed when the curve takes over. Above
    /// `maxEaseOutSlope` it overshoots.
    public static func easeOut(initialSlope slope: Double) -> TimingCurve {
        TimingCurve(x1: 1.0 / 3, y1: slope / 3, x2: 0.58, y2: 1)
    }

    /// Progress (0…1) at time fraction `x` (0…1).
    public func progress(at x: Double) -> Double {
        let x = min(max(x, 0), 1)
        return bezier(parameter(forX: x), y1, y2)
    }

    /// d progress / d time-fraction at `x`.
    public func slope(at x: Double) -> Double {
        var s = parameter(forX: min(max(x, 0), 1))
        // Where a control point sits on an end point both derivatives vanish: take the limit.
        if abs(derivative(s, x1, x2)) < 1e-9 { s = s < 0.5 ? s + 1e-7 : s - 1e-7 }
        let dx = derivative(s, x1, x2), dy = derivative(s, y1, y2)
        return dx == 0 ? .infinity : dy / dx
    }

    private func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// The curve parameter whose x is `x`: Newton's method, falling back to bisection.
    private func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - x
            if abs(error) < 1e-9 { return s }
            let d = derivative(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= error / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            if bezier(s, x1, x2) < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
