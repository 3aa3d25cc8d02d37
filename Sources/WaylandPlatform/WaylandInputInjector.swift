import Animation
import CWaylandProtocols
import CXKBCommon
import Geometry
import Glibc
import Input

/// Plays a script's input through the compositor as a user's devices would make it, so it comes back
/// through the same events: a virtual pointer (wlroots' protocol) for moves, buttons and the wheel, and
/// a virtual keyboard for keys (with a US keymap made by xkbcommon, and the modifiers a key needs held).
/// A client can't know where its window is, so the pointer finds out once: moved to the middle of the
/// layout, the place the window says it is under it gives the window's corner. Touches and touchpad
/// pinches, which no protocol lets a client make, are handed to the window as the compositor would send
/// them (as the X11 window builds the XI2 events XTest can't fake).
final class WaylandInputInjector {
    private let connection: WaylandDisplay
    private let seatProxy: OpaquePointer
    private let seat: WaylandSeat
    /// Where events no device can make go.
    private let deliver: (InputEvent) -> Void
    private var pointer: OpaquePointer?
    private var keyboard: VirtualKeyboard?
    /// The window's top-left corner in the layout (surface units), once found.
    private var origin: (x: Double, y: Double)?

    /// Absolute positions are sent in 1/256 of a layout unit.
    private static let subunits = 256.0

    /// Nil when the compositor offers no virtual pointer or keyboard.
    init?(connection: WaylandDisplay, seat: WaylandSeat, deliver: @escaping (InputEvent) -> Void) {
        guard connection.global("zwlr_virtual_pointer_manager_v1") != nil, connection.global("zwp_virtual_keyboard_manager_v1") != nil,
              let seatProxy = connection.global("wl_seat") else { return nil }
        self.connection = connection
        self.seatProxy = seatProxy
        self.seat = seat
        self.deliver = deliver
    }

    deinit {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        keyboard = nil
    }

    func inject(_ event: InputEvent) {
        switch event {
        case .pointerMove(let to, _):
            move(to)
        case .pointerDown(let at, let button, _):
            move(at)
            press(button, down: true)
        case .pointerUp(let at, let button, _):
            move(at)
            press(button, down: false)
        case .scroll(let dx, let dy, let unit, let at, let modifiers):
            move(at)
            withKeyboard { $0.hold(modifiers) }
            scroll(dx: dx, dy: dy, unit: unit)
            withKeyboard { $0.hold([]) }
        case .key(let name, let modifiers):
            withKeyboard { $0.type(name, modifiers: modifiers) }
        case .touch, .touchpadPinch:
            deliver(event)
        }
        _ = wl_display_flush(connection.display)
    }

    private var now: UInt32 { UInt32(truncatingIfNeeded: Int64(MonotonicClock.seconds() * 1000)) }

    /// Two round trips: the compositor has made the device, told the seat, and the seat's new pointer or
    /// keyboard has had its first events.
    private func settle() {
        for _ in 0..<2 { _ = wl_display_roundtrip(connection.display) }
    }

    // MARK: Pointer

    private func virtualPointer() -> OpaquePointer? {
        if pointer == nil, let manager = connection.global("zwlr_virtual_pointer_manager_v1") {
            pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seatProxy)
            settle()
        }
        return pointer
    }

    /// The layout all outputs cover, in layout units.
    private var layout: (x: Double, y: Double, width: Double, height: Double)? {
        let boxes = connection.outputs.values.map(\.layoutBox).filter { $0.width > 0 && $0.height > 0 }
        guard let x0 = boxes.map(\.x).min(), let y0 = boxes.map(\.y).min(),
              let x1 = boxes.map({ $0.x + $0.width }).max(), let y1 = boxes.map({ $0.y + $0.height }).max() else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    private func warp(_ pointer: OpaquePointer, toLayout x: Double, _ y: Double, in box: (x: Double, y: Double, width: Double, height: Double)) {
        let fx = min(max(0, (x - box.x) * Self.subunits), box.width * Self.subunits)
        let fy = min(max(0, (y - box.y) * Self.subunits), box.height * Self.subunits)
        zwlr_virtual_pointer_v1_motion_absolute(pointer, now, UInt32(fx), UInt32(fy), UInt32(box.width * Self.subunits), UInt32(box.height * Self.subunits))
        zwlr_virtual_pointer_v1_frame(pointer)
    }

    /// Moves the pointer over `point` of the window (points: the surface's units).
    private func move(_ point: Point) {
        guard let pointer = virtualPointer(), let box = layout else { return }
        if origin == nil {
            warp(pointer, toLayout: box.x + box.width / 2, box.y + box.height / 2, in: box)
            settle()
            if let under = seat.pointerOnWindow {
                origin = (box.x + box.width / 2 - under.x, box.y + box.height / 2 - under.y)
            }
        }
        guard let origin else { return }
        warp(pointer, toLayout: origin.x + point.x, origin.y + point.y, in: box)
    }

    private func press(_ button: Int, down: Bool) {
        guard let pointer = virtualPointer(), let code = WaylandInputDecoder.evdevButtons[button] else { return }
        zwlr_virtual_pointer_v1_button(pointer, now, code, down ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        zwlr_virtual_pointer_v1_frame(pointer)
    }

    /// Wheel notches as clicks (the compositor's 15 units each), smooth amounts as a finger's scroll.
    private func scroll(dx: Double, dy: Double, unit: ScrollUnit) {
        guard let pointer = virtualPointer() else { return }
        let axes = [(WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, dy), (WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, dx)].filter { $0.1 != 0 }
        guard !axes.isEmpty else { return }
        switch unit {
        case .notches:
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
            for (axis, amount) in axes {
                zwlr_virtual_pointer_v1_axis_discrete(pointer, now, axis, wl_fixed_from_double(amount * 15), Int32(amount.rounded()))
            }
        case .smooth:
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
            for (axis, amount) in axes {
                zwlr_virtual_pointer_v1_axis(pointer, now, axis, wl_fixed_from_double(amount * WaylandInputDecoder.smoothUnitsPerStep))
            }
        }
        zwlr_virtual_pointer_v1_frame(pointer)
    }

    // MARK: Keyboard

    private func withKeyboard(_ use: (VirtualKeyboard) -> Void) {
        if keyboard == nil, let manager = connection.global("zwp_virtual_keyboard_manager_v1") {
            keyboard = VirtualKeyboard(manager: manager, seat: seatProxy)
            settle()
        }
        keyboard.map(use)
    }
}

/// A keyboard the compositor makes for this client, with a keymap of xkbcommon's defaults (evdev, US):
/// keys are found by the keysym they type, and Shift is held for the ones on a shifted level.
private final class VirtualKeyboard {
    private let proxy: OpaquePointer
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    private var held: Modifiers = []

    init?(manager: OpaquePointer, seat: OpaquePointer) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let state = xkb_state_new(keymap), let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1),
              let proxy = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat) else {
            xkb_context_unref(context)
            return nil
        }
        defer { free(text) }
        self.context = context
        self.keymap = keymap
        self.state = state
        self.proxy = proxy
        // The keymap goes as a file, with its closing NUL.
        let size = strlen(text) + 1
        let fd = wayland_shm_file(size)
        if fd >= 0 {
            _ = write(fd, text, size)
            zwp_virtual_keyboard_v1_keymap(proxy, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(size))
            close(fd)
        }
    }

    deinit {
        zwp_virtual_keyboard_v1_destroy(proxy)
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    private var now: UInt32 { UInt32(truncatingIfNeeded: Int64(MonotonicClock.seconds() * 1000)) }

    /// The key that types `keysym`, and whether it is on the shifted level.
    private func key(typing keysym: xkb_keysym_t) -> (code: xkb_keycode_t, shifted: Bool)? {
        for code in xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap) {
            for level in 0..<min(2, xkb_keymap_num_levels_for_key(keymap, code, 0)) {
                var syms: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, code, 0, level, &syms)
                if let syms, (0..<Int(count)).contains(where: { syms[$0] == keysym }) { return (code, level == 1) }
            }
        }
        return nil
    }

    private func send(_ code: xkb_keycode_t, down: Bool) {
        zwp_virtual_keyboard_v1_key(proxy, now, code - 8, down ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        _ = xkb_state_update_key(state, code, down ? XKB_KEY_DOWN : XKB_KEY_UP)
    }

    /// Holds exactly `modifiers` (their left keys), and says so to the compositor.
    func hold(_ modifiers: Modifiers) {
        guard modifiers != held else { return }
        for (modifier, name) in [(Modifiers.shift, "Shift_L"), (.control, "Control_L"), (.alt, "Alt_L")]
        where modifiers.contains(modifier) != held.contains(modifier) {
            if let key = key(typing: xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)) { send(key.code, down: modifiers.contains(modifier)) }
        }
        held = modifiers
        zwp_virtual_keyboard_v1_modifiers(proxy, xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
                                          xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
                                          xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
                                          xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    /// Presses and releases the key typing keysym `name`, with `modifiers` (and Shift where its level needs it).
    func type(_ name: String, modifiers: Modifiers) {
        let keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        guard keysym != 0, let key = key(typing: keysym) else { return }
        hold(key.shifted ? modifiers.union(.shift) : modifiers)
        send(key.code, down: true)
        send(key.code, down: false)
        hold([])
    }
}
