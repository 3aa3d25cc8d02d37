import Geometry

/// A one-pointer drag: begins once the pointer has moved past the slop from where it went down,
/// then reports the translation from that point and the velocity (least squares over the last
/// 100 ms). A second pointer cancels it (a pinch takes over). It can lock to its dominant axis.
public final class PanRecognizer: Recognizer {
    public enum Axis: Sendable { case horizontal, vertical }

    public private(set) var state: GestureState = .possible
    public private(set) var startLocation = Point.zero
    public private(set) var location = Point.zero
    /// Decided once the movement passes `axisLockDistance`, when `locksAxis` is set.
    public private(set) var lockedAxis: Axis?
    public var locksAxis = false
    public var onChange: ((PanRecognizer) -> Void)?

    private var tracker = VelocityTracker()
    private var pointerID: Int?
    private var endTime = 0.0

    public init() {}

    /// Movement since the pointer went down, px (zero across a locked-out axis).
    public var translation: Point { project(location - startLocation) }

    /// px/s; at release, the release velocity.
    public var velocity: Point {
        project(tracker.velocity(at: state == .ended ? endTime : nil))
    }

    public func handle(_ event: PointerEvent, pointers: ActivePointers) {
        switch event.phase {
        case .down:
            if pointers.count == 1 {
                state = .possible
                pointerID = event.id
                startLocation = event.location
                location = event.location
                lockedAxis = nil
                tracker.reset()
                tracker.add(event.location, at: event.time)
            } else if state == .began || state == .changed {
                finish(.cancelled)
            } else {
                state = .failed
            }
        case .move:
            guard event.id == pointerID, state == .possible || state == .began || state == .changed else { return }
            location = event.location
            tracker.add(event.location, at: event.time)
            let moved = event.location - startLocation
            if locksAxis, lockedAxis == nil, moved.magnitude >= GestureTuning.axisLockDistance {
                lockedAxis = abs(moved.x) > abs(moved.y) ? .horizontal : .vertical
            }
            if state == .possible {
                guard moved.magnitude >= GestureTuning.touchSlop else { return }
                state = .began
            } else {
                state = .changed
            }
            onChange?(self)
        case .up:
            guard event.id == pointerID else { return }
            pointerID = nil
            guard state == .began || state == .changed else { state = .failed; return }
            location = event.location
            tracker.add(event.location, at: event.time)
            endTime = event.time
            finish(.ended)
        case .cancel:
            guard event.id == pointerID else { return }
            pointerID = nil
            if state == .began || state == .changed { finish(.cancelled) } else { state = .failed }
        }
    }

    public func advance(to time: Double) {}

    private func finish(_ end: GestureState) {
        state = end
        onChange?(self)
    }

    private func project(_ p: Point) -> Point {
        switch lockedAxis {
        case .horizontal?: return Point(x: p.x, y: 0)
        case .vertical?: return Point(x: 0, y: p.y)
        case nil: return p
        }
    }
}
