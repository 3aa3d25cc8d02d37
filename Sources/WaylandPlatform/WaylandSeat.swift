import Animation
import CWaylandProtocols
import Foundation
import Geometry
import Glibc
import Input

/// One wl_seat's pointer, keyboard and touchscreen, turned into the same `InputEvent`s the X11 window
/// gives: positions in device pixels (surface coordinates × `scale`), times in the compositor's
/// milliseconds as seconds, wheel notches and smooth scrolling told apart, held keys repeated at the
/// rate the compositor says.
final class WaylandSeat {
    private let seat: OpaquePointer
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var touch: OpaquePointer?
    private let xkb = XKBKeyboard()
    /// Device pixels a surface unit.
    var scale = 1.0
    /// Where translated events go.
    var deliver: (InputEvent) -> Void = { _ in }
    /// The arrow set when the pointer enters the window, if the desktop has a theme with one.
    var cursor: WaylandCursor?
    /// The window's own title bar, if it has one: input on it is the bar's, not the app's.
    var titleBar: WaylandTitleBar?
    /// What a press or release on the title bar asks for, with the input's serial.
    var titleBarAction: (WaylandTitleBar.Action, UInt32) -> Void = { _, _ in }
    /// The serial of the newest key press, button press or touch: what the clipboard is taken with.
    private(set) var lastSerial: UInt32 = 0
    /// Whether the pointer is on the title bar, and where on it (surface units).
    private var onBar = false, barAt = (x: 0.0, y: 0.0)
    /// Fingers that went down on the title bar (they move the window; the app never sees them).
    private var barFingers: Set<Int32> = []

    private var pointerAt = Point(x: 0, y: 0)
    /// Where the pointer is on the window's content (device pixels); nil while it is elsewhere.
    private(set) var pointerOnWindow: Point?
    /// The scroll gathered in the current pointer frame: notches (wheel clicks) and smooth amounts.
    private var notches = (dx: 0.0, dy: 0.0), smooth = (dx: 0.0, dy: 0.0)
    /// Fingers down, where each was last.
    private var fingers: [Int32: Point] = [:]
    /// Touch events waiting for their frame (a frame's events belong together).
    private var touchFrame: [InputEvent] = []
    /// The newest touch event's time.
    private var touchTime: Seconds = 0

    /// The touchpad's pinch (pointer gestures), made with the pointer where the compositor offers it.
    private let gestures: OpaquePointer?
    private var pinch: OpaquePointer?
    /// The pinch under way's newest scale (relative to its start).
    private var pinchScale = 1.0

    /// Key repeat: keys a second and the delay before the first repeat (s); rate 0 turns it off.
    private var repeatRate = 25.0, repeatDelay = 0.6
    /// The key held and repeating, and when it types next (monotonic s).
    private var repeating: (key: UInt32, next: Double)?

    /// A smooth scroll's surface units that make one `InputEvent.scroll` unit (GTK's ratio).
    static let smoothUnitsPerStep = 10.0

    init(_ seat: OpaquePointer, gestures: OpaquePointer?) {
        self.seat = seat
        self.gestures = gestures
        wl_seat_add_listener(seat, &Self.seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let pointer { release(pointer, wl_pointer_release, wl_pointer_destroy) }
        if let keyboard { release(keyboard, wl_keyboard_release, wl_keyboard_destroy) }
        if let touch { release(touch, wl_touch_release, wl_touch_destroy) }
    }

    private func release(_ proxy: OpaquePointer, _ withRequest: (OpaquePointer) -> Void, _ clientSide: (OpaquePointer) -> Void) {
        if wl_proxy_get_version(proxy) >= 3 { withRequest(proxy) } else { clientSide(proxy) }
    }

    /// When the held key types again (monotonic s), if one is held.
    var nextRepeat: Double? { repeating?.next }

    /// Types the held key for each repeat due by `now`.
    func repeatKeys(now: Double) {
        guard var held = repeating, repeatRate > 0 else { return }
        while held.next <= now {
            if let name = xkb?.name(ofKey: held.key) { deliver(.key(name: name, modifiers: xkb?.modifiers ?? [])) }
            held.next += 1 / repeatRate
        }
        repeating = held
    }

    private func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Point {
        Point(x: wl_fixed_to_double(x) * scale, y: wl_fixed_to_double(y) * scale)
    }

    /// The seat gained or lost a device: a lost one's object is released (its events have ended), and a
    /// new one is asked for when the device comes back (a virtual keyboard comes and goes).
    private func capabilities(_ caps: UInt32) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 {
            if pointer == nil, let p = wl_seat_get_pointer(seat) {
                pointer = p
                wl_pointer_add_listener(p, &Self.pointerListener, me)
                if let gestures, let made = zwp_pointer_gestures_v1_get_pinch_gesture(gestures, p) {
                    pinch = made
                    zwp_pointer_gesture_pinch_v1_add_listener(made, &Self.pinchListener, me)
                }
            }
        } else if let p = pointer {
            if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
            pinch = nil
            release(p, wl_pointer_release, wl_pointer_destroy)
            pointer = nil
        }
        if caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 {
            if keyboard == nil, let k = wl_seat_get_keyboard(seat) {
                keyboard = k
                wl_keyboard_add_listener(k, &Self.keyboardListener, me)
            }
        } else if let k = keyboard {
            release(k, wl_keyboard_release, wl_keyboard_destroy)
            keyboard = nil
            repeating = nil
        }
        if caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 {
            if touch == nil, let t = wl_seat_get_touch(seat) {
                touch = t
                wl_touch_add_listener(t, &Self.touchListener, me)
            }
        } else if let t = touch {
            release(t, wl_touch_release, wl_touch_destroy)
            touch = nil
            touchCancelled()
        }
    }

    // MARK: Pointer

    /// X11's button numbers for the evdev codes (left 1, middle 2, right 3, back 8, forward 9).
    private static func button(_ code: UInt32) -> Int? {
        switch code {
        case 0x110: 1
        case 0x112: 2
        case 0x111: 3
        case 0x113: 8
        case 0x114: 9
        default: nil
        }
    }

    private func pointerButton(_ code: UInt32, serial: UInt32, time: UInt32, pressed: Bool) {
        if pressed { lastSerial = serial }
        guard let button = Self.button(code) else { return }
        if onBar, let bar = titleBar {
            let action = pressed ? bar.pressed(button: button, x: barAt.x, y: barAt.y) : bar.released(button: button, x: barAt.x)
            if let action { titleBarAction(action, serial) }
            return
        }
        let seconds = Seconds(time) / 1000
        deliver(pressed ? .pointerDown(at: pointerAt, button: button, time: seconds) : .pointerUp(at: pointerAt, button: button, time: seconds))
    }

    private func axis(_ axis: UInt32, value: wl_fixed_t) {
        let amount = wl_fixed_to_double(value) / Self.smoothUnitsPerStep
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { smooth.dy += amount } else { smooth.dx += amount }
    }

    private func axisDiscrete(_ axis: UInt32, steps: Int32) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { notches.dy += Double(steps) } else { notches.dx += Double(steps) }
    }

    /// The end of a pointer frame: its scroll, as notches when the wheel clicked, else smooth.
    private func pointerFrame() {
        defer { notches = (0, 0); smooth = (0, 0) }
        let modifiers = xkb?.modifiers ?? []
        if notches.dx != 0 || notches.dy != 0 {
            deliver(.scroll(dx: notches.dx, dy: notches.dy, unit: .notches, at: pointerAt, modifiers: modifiers))
        } else if smooth.dx != 0 || smooth.dy != 0 {
            deliver(.scroll(dx: smooth.dx, dy: smooth.dy, unit: .smooth, at: pointerAt, modifiers: modifiers))
        }
    }

    // MARK: Keyboard

    private func key(_ key: UInt32, pressed: Bool) {
        guard let xkb else { return }
        if pressed {
            if let name = xkb.name(ofKey: key) { deliver(.key(name: name, modifiers: xkb.modifiers)) }
            repeating = xkb.repeats(key: key) && repeatRate > 0 ? (key, MonotonicClock.seconds() + repeatDelay) : nil
        } else if repeating?.key == key {
            repeating = nil
        }
    }

    // MARK: Touch

    private func touchEvent(_ phase: TouchPhase, id: Int32, at: Point?, time: UInt32) {
        guard !barFingers.contains(id) else {
            if phase == .end || phase == .cancel { barFingers.remove(id) }
            return
        }
        let at = at ?? fingers[id] ?? pointerAt
        switch phase {
        case .begin, .update: fingers[id] = at
        case .end, .cancel: fingers[id] = nil
        }
        touchTime = Seconds(time) / 1000
        touchFrame.append(.touch(phase, id: Int(id), at: at, time: touchTime))
    }

    /// The compositor took the touch sequence away (a gesture of its own): every finger is cancelled.
    private func touchCancelled() {
        touchFrame = []
        for (id, at) in fingers { deliver(.touch(.cancel, id: Int(id), at: at, time: touchTime)) }
        fingers = [:]
    }

    private func touchFrameEnded() {
        for event in touchFrame { deliver(event) }
        touchFrame = []
    }

    // MARK: Listeners

    private static func seat(_ data: UnsafeMutableRawPointer?) -> WaylandSeat? {
        data.map { Unmanaged<WaylandSeat>.fromOpaque($0).takeUnretainedValue() }
    }

    private nonisolated(unsafe) static var seatListener = wl_seat_listener(
        capabilities: { data, _, caps in seat(data)?.capabilities(caps) },
        name: { _, _, _ in })

    private nonisolated(unsafe) static var pointerListener = wl_pointer_listener(
        enter: { data, pointer, serial, surface, x, y in
            guard let s = seat(data) else { return }
            s.onBar = surface != nil && surface == s.titleBar?.surface
            if s.onBar {
                s.barAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
            } else {
                s.pointerAt = s.point(x, y)
                s.pointerOnWindow = s.pointerAt
            }
            if let pointer { s.cursor?.show(on: pointer, serial: serial) }
        },
        leave: { data, _, _, _ in
            guard let s = seat(data) else { return }
            s.pointerOnWindow = nil
            guard s.onBar else { return }
            s.onBar = false
            s.titleBar?.pointerLeft()
        },
        motion: { data, _, time, x, y in
            guard let s = seat(data) else { return }
            if s.onBar {
                s.barAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
                s.titleBar?.pointerMoved(x: s.barAt.x)
                return
            }
            s.pointerAt = s.point(x, y)
            s.pointerOnWindow = s.pointerAt
            s.deliver(.pointerMove(to: s.pointerAt, time: Seconds(time) / 1000))
        },
        button: { data, _, serial, time, button, state in
            seat(data)?.pointerButton(button, serial: serial, time: time, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        },
        axis: { data, _, _, axis, value in seat(data)?.axis(axis, value: value) },
        frame: { data, _ in seat(data)?.pointerFrame() },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { data, _, axis, steps in seat(data)?.axisDiscrete(axis, steps: steps) },
        axis_value120: { _, _, _, _ in })

    /// Two fingers pinching on the touchpad: `scale` is relative to their distance at the start, as XI 2.4's
    /// pinch gives it on X11.
    private nonisolated(unsafe) static var pinchListener = zwp_pointer_gesture_pinch_v1_listener(
        begin: { data, _, _, time, _, _ in
            guard let s = seat(data) else { return }
            s.pinchScale = 1
            s.deliver(.touchpadPinch(.begin, scale: 1, at: s.pointerAt, time: Seconds(time) / 1000))
        },
        update: { data, _, time, _, _, scale, _ in
            guard let s = seat(data) else { return }
            s.pinchScale = wl_fixed_to_double(scale)
            s.deliver(.touchpadPinch(.update, scale: s.pinchScale, at: s.pointerAt, time: Seconds(time) / 1000))
        },
        end: { data, _, _, time, cancelled in
            guard let s = seat(data) else { return }
            s.deliver(.touchpadPinch(cancelled != 0 ? .cancel : .end, scale: s.pinchScale, at: s.pointerAt, time: Seconds(time) / 1000))
        })

    private nonisolated(unsafe) static var keyboardListener = wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let s = seat(data), let xkb = s.xkb else { close(fd); return }
            _ = xkb.load(fd: fd, size: Int(size))
        },
        enter: { _, _, _, _, _ in },
        leave: { data, _, _, _ in seat(data)?.repeating = nil },
        key: { data, _, serial, _, key, state in
            guard let s = seat(data) else { return }
            let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
            if pressed { s.lastSerial = serial }
            s.key(key, pressed: pressed)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            seat(data)?.xkb?.updateModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        },
        repeat_info: { data, _, rate, delay in
            guard let s = seat(data) else { return }
            s.repeatRate = Double(max(0, rate))
            s.repeatDelay = Double(max(0, delay)) / 1000
        })

    private nonisolated(unsafe) static var touchListener = wl_touch_listener(
        down: { data, _, serial, time, surface, id, x, y in
            guard let s = seat(data) else { return }
            s.lastSerial = serial
            if surface != nil, surface == s.titleBar?.surface {
                // A finger on the bar drags the window.
                s.barFingers.insert(id)
                s.titleBarAction(.move, serial)
                return
            }
            s.touchEvent(.begin, id: id, at: s.point(x, y), time: time)
        },
        up: { data, _, _, time, id in seat(data)?.touchEvent(.end, id: id, at: nil, time: time) },
        motion: { data, _, time, id, x, y in
            guard let s = seat(data) else { return }
            s.touchEvent(.update, id: id, at: s.point(x, y), time: time)
        },
        frame: { data, _ in seat(data)?.touchFrameEnded() },
        cancel: { data, _ in seat(data)?.touchCancelled() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in })
}
