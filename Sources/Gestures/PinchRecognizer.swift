import Foundation
import Geometry

/// Two fingers: the scale is their distance over the distance when the second went down, the
/// rotation how far the line through them turned since (radians, clockwise on screen), and the
/// centre is their midpoint. Ends when either lifts, with the scale's and the centre's velocity
/// (least squares over the last 100 ms, as a pan's).
public final class PinchRecognizer: Recognizer {
    public private(set) var state: GestureState = .possible
    public private(set) var scale = 1.0
    /// Radians, clockwise positive (y grows down), within −π…π.
    public private(set) var rotation = 0.0
    public private(set) var center = Point.zero
    /// The centre when the second finger went down.
    public private(set) var startCenter = Point.zero
    public var onChange: ((PinchRecognizer) -> Void)?

    private var fingers: [Int] = []
    private var startDistance = 0.0
    private var startAngle = 0.0
    /// Tracks (scale, 0) and the centre.
    private var scaleTracker = VelocityTracker()
    private var centerTracker = VelocityTracker()
    private var endTime = 0.0

    /// Scale per second; at release, the release velocity.
    public var scaleVelocity: Double { scaleTracker.velocity(at: state == .ended ? endTime : nil).x }
    /// The centre's velocity, px/s.
    public var velocity: Point { centerTracker.velocity(at: state == .ended ? endTime : nil) }

    public init() {}

    public func handle(_ event: PointerEvent, pointers: ActivePointers) {
        switch event.phase {
        case .down:
            guard pointers.count == 2, state != .began, state != .changed else { return }
            fingers = pointers.ids
            let (a, b) = positions(pointers)
            startDistance = max(distance(a, b), 1)
            startAngle = angle(a, b)
            scale = 1
            rotation = 0
            center = midpoint(a, b)
            startCenter = center
            scaleTracker.reset()
            centerTracker.reset()
            track(event.time)
            state = .began
            onChange?(self)
        case .move:
            guard state == .began || state == .changed, fingers.contains(event.id) else { return }
            let (a, b) = positions(pointers)
            scale = distance(a, b) / startDistance
            rotation = remainder(angle(a, b) - startAngle, 2 * .pi)
            center = midpoint(a, b)
            track(event.time)
            state = .changed
            onChange?(self)
        case .up, .cancel:
            guard state == .began || state == .changed, fingers.contains(event.id) else { return }
            state = event.phase == .up ? .ended : .cancelled
            endTime = event.time
            fingers = []
            onChange?(self)
        }
    }

    public func advance(to time: Double) {}

    private func track(_ time: Double) {
        scaleTracker.add(Point(x: scale, y: 0), at: time)
        centerTracker.add(center, at: time)
    }

    private func positions(_ pointers: ActivePointers) -> (Point, Point) {
        (pointers.locations[fingers[0]] ?? center, pointers.locations[fingers[1]] ?? center)
    }

    private func angle(_ a: Point, _ b: Point) -> Double { atan2(b.y - a.y, b.x - a.x) }

    private func midpoint(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
}
