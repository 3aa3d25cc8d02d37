import Geometry

/// Estimates a pointer's velocity from its recent positions: a least-squares line through the
/// samples of the last `window` seconds, fitted separately in x and y. A finger that stopped before
/// lifting has only still samples in the window, so its velocity is about zero.
public struct VelocityTracker: Sendable {
    /// How far back the fit looks, s.
    public static let window = 0.1

    private var samples: [(time: Double, point: Point)] = []

    public init() {}

    public mutating func add(_ point: Point, at time: Double) {
        samples.append((time, point))
        samples.removeAll { $0.time < time - VelocityTracker.window * 2 }
    }

    public mutating func reset() { samples.removeAll() }

    /// Velocity in px/s at `time` (the last event's time when nil).
    public func velocity(at time: Double? = nil) -> Point {
        guard let last = samples.last else { return .zero }
        let now = time ?? last.time
        let recent = samples.filter { $0.time >= now - VelocityTracker.window }
        // Still at `now` where it was last seen: that counts as a sample.
        var points = recent
        if now > last.time { points.append((now, last.point)) }
        guard points.count >= 2 else { return .zero }
        let n = Double(points.count)
        let meanT = points.reduce(0) { $0 + $1.time } / n
        let meanX = points.reduce(0) { $0 + $1.point.x } / n
        let meanY = points.reduce(0) { $0 + $1.point.y } / n
        var stt = 0.0, stx = 0.0, sty = 0.0
        for p in points {
            let dt = p.time - meanT
            stt += dt * dt
            stx += dt * (p.point.x - meanX)
            sty += dt * (p.point.y - meanY)
        }
        guard stt > 0 else { return .zero }
        return Point(x: stx / stt, y: sty / stt)
    }
}
