/// UIScrollView's resistance past an edge: pulled `x` px beyond it, the content moves
/// (1 − 1 / (x·c / d + 1))·d, where d is the viewport's length and c = 0.55. It never reaches d.
public enum RubberBand {
    public static let coefficient = 0.55

    public static func offset(forOvershoot x: Double, dimension d: Double) -> Double {
        guard x > 0, d > 0 else { return 0 }
        return (1 - 1 / (x * coefficient / d + 1)) * d
    }

    /// The overshoot that the finger must have pulled to show `y` px past the edge.
    public static func overshoot(forOffset y: Double, dimension d: Double) -> Double {
        guard y > 0, d > 0 else { return 0 }
        let clamped = min(y, d * 0.999)
        return d / coefficient * (1 / (1 - clamped / d) - 1)
    }
}
