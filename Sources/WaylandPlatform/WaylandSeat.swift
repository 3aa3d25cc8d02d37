import Animation
import CWaylandProtocols
import Foundation
import Geometry
import Glibc
import Input

/// One wl_seat's pointer, keyboard, touchscreen and touchpad pinch: their events decoded into the same
/// `InputEvent`s the X11 window gives (`WaylandInputDecoder`), keys through the compositor's keymap
/// and held keys repeated at its rate; input on the window's own title bar goes to the bar.
final class WaylandSeat {
    private let seat: OpaquePointer
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var touch: OpaquePointer?
    private let xkb = XKBKeyboard()
    private var decoder = WaylandInputDecoder()
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

    /// Where the pointer is on the window's content (device pixels); nil while it is elsewhere.
    var pointerOnWindow: Point? { pointerInside ? decoder.pointerAt : nil }
    private var pointerInside = false

    /// The touchpad's pinch (pointer gestures), made with the pointer where the compositor offers it.
    private let gestures: OpaquePointer?
    private var pinch: OpaquePointer?

    /// Key repeat: keys a second and the delay before the first repeat (s); rate 0 turns it off.
    private var repeatRate = 25.0, repeatDelay = 0.6
    /// The key held and repeating, and when it types next (monotonic s).
    private var repeating: (key: UInt32, next: Double)?

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
            for event in decoder.touchCancelled() { deliver(event) }
        }
    }

    // MARK: Drags out

    /// The compositor carries a drag out and moved it over the window (surface units): the app's copy follows.
    func dragMoved(x: Double, y: Double, time: UInt32) {
        deliver(decoder.pointerMoved(x: x, y: y, time: time))
    }

    /// The drag out ended where the compositor had it: the press that began it is let go for the app (its
    /// release went to the compositor), outside the window when a program took the drop (the copy fades),
    /// else where the pointer was (it flies back); fingers are cancelled (it flies back).
    func dragEnded(taken: Bool) {
        let fingers = decoder.touchCancelled()
        if !fingers.isEmpty { return fingers.forEach(deliver) }
        deliver(.pointerUp(at: taken ? Point(x: -1_000_000, y: -1_000_000) : decoder.pointerAt, button: 1, time: MonotonicClock.seconds()))
    }

    // MARK: Pointer

    private func pointerButton(_ code: UInt32, serial: UInt32, time: UInt32, pressed: Bool) {
        if pressed { lastSerial = serial }
        if onBar, let bar = titleBar, let button = WaylandInputDecoder.button(code) {
            let action = pressed ? bar.pressed(button: button, x: barAt.x, y: barAt.y) : bar.released(button: button, x: barAt.x)
            if let action { titleBarAction(action, serial) }
            return
        }
        if let event = decoder.button(code, pressed: pressed, time: time) { deliver(event) }
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

    /// A finger's event, unless it went down on the title bar (moving the window).
    private func fingerOnBar(_ id: Int32, ending: Bool) -> Bool {
        guard barFingers.contains(id) else { return false }
        if ending { barFingers.remove(id) }
        return true
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
            s.pointerInside = !s.onBar
            if s.onBar {
                s.barAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
            } else {
                s.decoder.pointerEntered(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            }
            if let pointer { s.cursor?.show(on: pointer, serial: serial) }
        },
        leave: { data, _, _, _ in
            guard let s = seat(data) else { return }
            s.pointerInside = false
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
            s.deliver(s.decoder.pointerMoved(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), time: time))
        },
        button: { data, _, serial, time, button, state in
            seat(data)?.pointerButton(button, serial: serial, time: time, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        },
        axis: { data, _, _, axis, value in seat(data)?.decoder.axis(axis, value: wl_fixed_to_double(value)) },
        frame: { data, _ in
            guard let s = seat(data), let scroll = s.decoder.pointerFrame(modifiers: s.xkb?.modifiers ?? []) else { return }
            s.deliver(scroll)
        },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { data, _, axis, steps in seat(data)?.decoder.axisDiscrete(axis, steps: steps) },
        axis_value120: { data, _, axis, value in seat(data)?.decoder.axisValue120(axis, value120: value) })

    private nonisolated(unsafe) static var pinchListener = zwp_pointer_gesture_pinch_v1_listener(
        begin: { data, _, _, time, _, _ in
            guard let s = seat(data) else { return }
            s.deliver(s.decoder.pinchBegan(time: time))
        },
        update: { data, _, time, _, _, scale, _ in
            guard let s = seat(data) else { return }
            s.deliver(s.decoder.pinchChanged(scale: wl_fixed_to_double(scale), time: time))
        },
        end: { data, _, _, time, cancelled in
            guard let s = seat(data) else { return }
            s.deliver(s.decoder.pinchEnded(cancelled: cancelled != 0, time: time))
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
            s.decoder.touchDown(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), time: time)
        },
        up: { data, _, _, time, id in
            guard let s = seat(data), !s.fingerOnBar(id, ending: true) else { return }
            s.decoder.touchUp(id: id, time: time)
        },
        motion: { data, _, time, id, x, y in
            guard let s = seat(data), !s.fingerOnBar(id, ending: false) else { return }
            s.decoder.touchMoved(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), time: time)
        },
        frame: { data, _ in
            guard let s = seat(data) else { return }
            for event in s.decoder.touchFrameEnded() { s.deliver(event) }
        },
        cancel: { data, _ in
            guard let s = seat(data) else { return }
            s.barFingers = []
            for event in s.decoder.touchCancelled() { s.deliver(event) }
        },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in })
}
