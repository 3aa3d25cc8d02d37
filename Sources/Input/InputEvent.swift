import Geometry

/// What the user did, in window coordinates, free of any windowing system. The X11 adapter (and
/// later scripts and tests) produce these; the app consumes them.
public enum InputEvent: Equatable, Sendable {
    /// A scroll in scroll units (one wheel notch is 1): positive `dy` scrolls the content up (the
    /// wheel turned toward the user), as X11's buttons 5 and 7 do. `unit` says what the amounts
    /// are, as the source decoded them.
    case scroll(dx: Double, dy: Double, unit: ScrollUnit, at: Point, modifiers: Modifiers)
    case pointerDown(at: Point, button: Int, time: Seconds)
    case pointerMove(to: Point, time: Seconds)
    case pointerUp(at: Point, button: Int, time: Seconds)
    /// A key by its X keysym name (`q`, `s`, `Escape`, `Left`, `Return`, `F11` …).
    case key(name: String, modifiers: Modifiers)
    /// A finger on a touchscreen; `id` stays the same from begin to end.
    case touch(TouchPhase, id: Int, at: Point, time: Seconds)
    /// A two-finger pinch on a touchpad (XI 2.4 gestures): `scale` is relative to the fingers' distance
    /// at `begin`, `at` is the pointer.
    case touchpadPinch(TouchPhase, scale: Double, at: Point, time: Seconds)
}

public enum TouchPhase: Sendable { case begin, update, end, cancel }

/// What a scroll's amounts are.
public enum ScrollUnit: Sendable {
    /// Clicks of a mouse wheel: the content glides a step a notch (and in the viewer, zooms).
    case notches
    /// A touchpad's continuous scrolling: the content follows the fingers at once.
    case smooth
}

/// An event's time in seconds, on its source's clock (the X server's, or a script's): only the
/// differences between events count.
public typealias Seconds = Double

public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1 << 0)
    public static let control = Modifiers(rawValue: 1 << 1)
    public static let alt = Modifiers(rawValue: 1 << 2)
}

extension InputEvent {
    /// The same event at another time (scripts lay events out from 0 and stamp them when played).
    public func shifted(by seconds: Seconds) -> InputEvent {
        switch self {
        case .pointerDown(let at, let button, let time): return .pointerDown(at: at, button: button, time: time + seconds)
        case .pointerMove(let to, let time): return .pointerMove(to: to, time: time + seconds)
        case .pointerUp(let at, let button, let time): return .pointerUp(at: at, button: button, time: time + seconds)
        case .touch(let phase, let id, let at, let time): return .touch(phase, id: id, at: at, time: time + seconds)
        case .touchpadPinch(let phase, let scale, let at, let time):
            return .touchpadPinch(phase, scale: scale, at: at, time: time + seconds)
        case .scroll, .key: return self
        }
    }
}

extension InputEvent {
    /// The same event with its coordinates multiplied by `factor` (device pixels ⇄ points on a
    /// scaled display).
    public func scaled(by factor: Double) -> InputEvent {
        switch self {
        case .scroll(let dx, let dy, let unit, let at, let modifiers):
            return .scroll(dx: dx, dy: dy, unit: unit, at: at * factor, modifiers: modifiers)
        case .pointerDown(let at, let button, let time): return .pointerDown(at: at * factor, button: button, time: time)
        case .pointerMove(let to, let time): return .pointerMove(to: to * factor, time: time)
        case .pointerUp(let at, let button, let time): return .pointerUp(at: at * factor, button: button, time: time)
        case .key: return self
        case .touch(let phase, let id, let at, let time): return .touch(phase, id: id, at: at * factor, time: time)
        case .touchpadPinch(let phase, let scale, let at, let time):
            return .touchpadPinch(phase, scale: scale, at: at * factor, time: time)
        }
    }
}
