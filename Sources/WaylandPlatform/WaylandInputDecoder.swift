import CWaylandProtocols
import Geometry
import Input

/// wl_pointer, wl_touch and pointer-gesture events, as plain values, into the `InputEvent`s the X11
/// window gives: positions in points (the surface's own units: its logical size is the window's in points), times in the compositor's
/// milliseconds as seconds, a pointer frame's scroll as wheel notches when the wheel clicked and smooth
/// amounts otherwise, a touch frame's events together, a cancel as every finger cancelled. No protocol
/// objects here: `WaylandSeat` feeds it, and the tests feed it events made by hand.
struct WaylandInputDecoder {
    /// A smooth scroll's surface units that make one `InputEvent.scroll` unit (GTK's ratio).
    static let smoothUnitsPerStep = 10.0

    /// Where the pointer is on the window (points).
    private(set) var pointerAt = Point(x: 0, y: 0)
    /// The scroll gathered in the current pointer frame: notches (wheel clicks) and smooth amounts.
    private var notches = (dx: 0.0, dy: 0.0), smooth = (dx: 0.0, dy: 0.0)
    /// Fingers down, where the app last saw each (at the end of a frame), and where each is in the
    /// frame under way.
    private var fingers: [Int32: Point] = [:], framing: [Int32: Point]?
    /// Touch events waiting for their frame.
    private var touchFrame: [InputEvent] = []
    /// The newest touch event's time.
    private var touchTime: Seconds = 0
    /// The touchpad pinch under way's newest scale (relative to its start).
    private var pinchScale = 1.0

    private func point(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
    private static func seconds(_ milliseconds: UInt32) -> Seconds { Seconds(milliseconds) / 1000 }

    // MARK: Pointer

    /// The pointer came onto the window at (`x`, `y`), surface units.
    mutating func pointerEntered(x: Double, y: Double) { pointerAt = point(x, y) }

    mutating func pointerMoved(x: Double, y: Double, time: UInt32) -> InputEvent {
        pointerAt = point(x, y)
        return .pointerMove(to: pointerAt, time: Self.seconds(time))
    }

    /// The evdev codes of the buttons the viewer uses, by X11's button numbers (left 1, middle 2, right 3,
    /// back 8, forward 9): the one table both ways (the decoder reads codes, the script injector sends them).
    static let evdevButtons: [Int: UInt32] = [1: 0x110, 2: 0x112, 3: 0x111, 8: 0x113, 9: 0x114]

    /// X11's button number for the evdev `code`.
    static func button(_ code: UInt32) -> Int? {
        evdevButtons.first { $0.value == code }?.key
    }

    func button(_ code: UInt32, pressed: Bool, time: UInt32) -> InputEvent? {
        guard let button = Self.button(code) else { return nil }
        let seconds = Self.seconds(time)
        return pressed ? .pointerDown(at: pointerAt, button: button, time: seconds) : .pointerUp(at: pointerAt, button: button, time: seconds)
    }

    /// A scroll of `value` surface units on `axis` (wl_pointer.axis).
    mutating func axis(_ axis: UInt32, value: Double) {
        let amount = value / Self.smoothUnitsPerStep
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { smooth.dy += amount } else { smooth.dx += amount }
    }

    /// Wheel clicks on `axis` (wl_pointer.axis_discrete, seat versions 5–7).
    mutating func axisDiscrete(_ axis: UInt32, steps: Int32) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { notches.dy += Double(steps) } else { notches.dx += Double(steps) }
    }

    /// A wheel's turn on `axis` in 120ths of a click (wl_pointer.axis_value120, seat version 8): a
    /// high-resolution wheel sends parts of a click, which scroll that part of a click's distance.
    mutating func axisValue120(_ axis: UInt32, value120: Int32) {
        let amount = Double(value120) / 120
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { notches.dy += amount } else { notches.dx += amount }
    }

    /// The end of a pointer frame: its scroll (with the keyboard's `modifiers`), if it had one.
    mutating func pointerFrame(modifiers: Modifiers) -> InputEvent? {
        defer { notches = (0, 0); smooth = (0, 0) }
        if notches.dx != 0 || notches.dy != 0 {
            return .scroll(dx: notches.dx, dy: notches.dy, unit: .notches, at: pointerAt, modifiers: modifiers)
        }
        if smooth.dx != 0 || smooth.dy != 0 {
            return .scroll(dx: smooth.dx, dy: smooth.dy, unit: .smooth, at: pointerAt, modifiers: modifiers)
        }
        return nil
    }

    // MARK: Touch

    mutating func touchDown(id: Int32, x: Double, y: Double, time: UInt32) { touch(.begin, id: id, at: point(x, y), time: time) }
    mutating func touchMoved(id: Int32, x: Double, y: Double, time: UInt32) { touch(.update, id: id, at: point(x, y), time: time) }
    mutating func touchUp(id: Int32, time: UInt32) { touch(.end, id: id, at: nil, time: time) }

    private mutating func touch(_ phase: TouchPhase, id: Int32, at: Point?, time: UInt32) {
        var now = framing ?? fingers
        let at = at ?? now[id] ?? pointerAt
        switch phase {
        case .begin, .update: now[id] = at
        case .end, .cancel: now[id] = nil
        }
        framing = now
        touchTime = Self.seconds(time)
        touchFrame.append(.touch(phase, id: Int(id), at: at, time: touchTime))
    }

    /// The end of a touch frame: its events, in order.
    mutating func touchFrameEnded() -> [InputEvent] {
        defer { touchFrame = [] }
        if let framing { fingers = framing }
        framing = nil
        return touchFrame
    }

    /// The compositor took the touch sequence away (a gesture of its own): every finger still down is
    /// cancelled where the app last saw it, and the frame under way is dropped.
    mutating func touchCancelled() -> [InputEvent] {
        touchFrame = []
        framing = nil
        defer { fingers = [:] }
        return fingers.sorted { $0.key < $1.key }.map { .touch(.cancel, id: Int($0.key), at: $0.value, time: touchTime) }
    }

    // MARK: Touchpad pinch

    /// Two fingers pinching on the touchpad: `scale` is relative to their distance at the start, as XI 2.4's
    /// pinch gives it on X11.
    mutating func pinchBegan(time: UInt32) -> InputEvent {
        pinchScale = 1
        return .touchpadPinch(.begin, scale: 1, at: pointerAt, time: Self.seconds(time))
    }

    mutating func pinchChanged(scale: Double, time: UInt32) -> InputEvent {
        pinchScale = scale
        return .touchpadPinch(.update, scale: scale, at: pointerAt, time: Self.seconds(time))
    }

    func pinchEnded(cancelled: Bool, time: UInt32) -> InputEvent {
        .touchpadPinch(cancelled ? .cancel : .end, scale: pinchScale, at: pointerAt, time: Self.seconds(time))
    }
}
