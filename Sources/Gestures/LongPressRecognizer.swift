import Geometry

/// A press held still (within the slop) for `GestureTuning.longPressDuration`, by one pointer: it
/// begins then, follows that pointer's moves, and ends when it lifts (iOS's lift to drag). A move
/// past the slop, a second pointer or a lift before the time fails it.
public final class LongPressRecognizer: Recognizer {
    public private(set) var state: GestureState = .possible
    /// Where the press went down, and where its pointer is now.
    public private(set) var startLocation = Point.zero
    public private(set) var location = Point.zero
    public var onChange: ((LongPressRecognizer) -> Void)?

    private var pointer: Int?
    private var deadline: Double?

    public init() {}

    public func handle(_ event: PointerEvent, pointers: ActivePointers) {
        if [.ended, .cancelled, .failed].contains(state) {
            guard event.phase == .down, pointers.count == 1 else { return }
            state = .possible
        }
        switch (state, event.phase) {
        case (.possible, .down):
            guard pointers.count == 1 else { return fail() }
            pointer = event.id
            startLocation = event.location
            location = event.location
            deadline = event.time + GestureTuning.longPressDuration
        case (.possible, _):
            guard event.id == pointer else { return }
            // Held down past its time with no event between (a loop that slept): it began then, and this
            // event follows it.
            if let deadline, event.time >= deadline {
                begin()
                return handle(event, pointers: pointers)
            }
            if event.phase != .move || distance(event.location, startLocation) > GestureTuning.touchSlop { fail() }
        case (.began, _), (.changed, _):
            if event.phase == .down { return cancel() }   // a second pointer: a pinch, not a drag
            guard event.id == pointer else { return }
            location = event.location
            state = event.phase == .move ? .changed : event.phase == .up ? .ended : .cancelled
            onChange?(self)
        default:
            break
        }
    }

    public var isWaiting: Bool { deadline != nil && state == .possible }

    public func advance(to time: Double) {
        if state == .possible, let deadline, time >= deadline { begin() }
    }

    private func begin() {
        deadline = nil
        state = .began
        onChange?(self)
    }

    private func fail() {
        deadline = nil
        pointer = nil
        if state == .possible { state = .failed }
    }

    private func cancel() {
        state = .cancelled
        onChange?(self)
    }
}
