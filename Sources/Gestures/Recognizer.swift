import Geometry

/// The pointers down right now, kept by the one owner of raw pointer state (`GestureCenter`).
public struct ActivePointers: Sendable {
    /// In the order they went down.
    public private(set) var ids: [Int] = []
    public private(set) var locations: [Int: Point] = [:]

    public var count: Int { ids.count }

    mutating func apply(_ event: PointerEvent) {
        switch event.phase {
        case .down:
            if locations[event.id] == nil { ids.append(event.id) }
            locations[event.id] = event.location
        case .move:
            if locations[event.id] != nil { locations[event.id] = event.location }
        case .up, .cancel:
            ids.removeAll { $0 == event.id }
            locations[event.id] = nil
        }
    }
}

/// A gesture handler with start / change / end, fed by `GestureCenter`.
public protocol Recognizer: AnyObject {
    var state: GestureState { get }
    /// `pointers` already includes the event's effect.
    func handle(_ event: PointerEvent, pointers: ActivePointers)
    /// Lets time-outs happen (a double tap that never came).
    func advance(to time: Double)
    /// Waiting for time to pass (for a second tap): `advance` must keep being called.
    var isWaiting: Bool { get }
}

extension Recognizer {
    public var isWaiting: Bool { false }
}

/// Owns the raw pointer state and hands every event, in order, to its recognizers.
public final class GestureCenter {
    public private(set) var pointers = ActivePointers()
    public private(set) var recognizers: [Recognizer] = []

    public init() {}

    public func add(_ recognizer: Recognizer) { recognizers.append(recognizer) }

    /// Some recognizer waits for time to pass (a tap that may become a double tap).
    public var isWaiting: Bool { recognizers.contains { $0.isWaiting } }

    public func handle(_ event: PointerEvent) {
        pointers.apply(event)
        for r in recognizers { r.handle(event, pointers: pointers) }
        advance(to: event.time)
    }

    public func advance(to time: Double) {
        for r in recognizers { r.advance(to: time) }
    }
}
