import CX11
import Foundation
import Geometry
import Input

/// Sends platform-free input back into the window the way a user would make it: pointer, wheel and
/// keys as real server input through XTest, so they come back through the same event path; touches,
/// which XTest can't fake, as XI2 device events handed to the same decoder.
final class X11InputInjector {
    private let display: OpaquePointer
    private let window: Window
    /// The last server time seen on an event, and when (monotonic s): touches get times in step.
    private var serverTime: (ms: UInt, at: Double) = (0, 0)

    init(display: OpaquePointer, window: Window) {
        self.display = display
        self.window = window
    }

    func noteServerTime(_ ms: UInt) { serverTime = (ms, Date().timeIntervalSinceReferenceDate) }

    /// What XTest cannot fake (a touch, a touchpad pinch), built as the XI2 event the server would
    /// send; the window decodes it as it decodes the server's.
    enum Constructed {
        case device(XIDeviceEvent)
        case pinch(XIGesturePinchEvent)
    }

    /// Fakes `event`; nil when the server delivers it, else the event to decode.
    func inject(_ event: InputEvent) -> Constructed? {
        switch event {
        case .pointerMove(let to, _):
            move(to)
        case .pointerDown(let at, let button, _):
            move(at)
            XTestFakeButtonEvent(display, UInt32(button), 1, 0)
        case .pointerUp(let at, let button, _):
            move(at)
            XTestFakeButtonEvent(display, UInt32(button), 0, 0)
        case .scroll(let dx, let dy, _, let at, let modifiers):   // XTest has buttons only: notches
            move(at)
            let control = XKeysymToKeycode(display, KeySym(XK_Control_L))
            if modifiers.contains(.control) { XTestFakeKeyEvent(display, UInt32(control), 1, 0) }
            notches(Int(dy.rounded()), up: 4, down: 5)
            notches(Int(dx.rounded()), up: 6, down: 7)
            if modifiers.contains(.control) { XTestFakeKeyEvent(display, UInt32(control), 0, 0) }
        case .key(let name, let modifiers):
            focus()
            key(name, modifiers: modifiers)
        case .touch(let phase, let id, let at, _):
            return .device(touchEvent(phase, id: id, at: at))
        case .touchpadPinch(let phase, let scale, let at, _):
            return .pinch(pinchEvent(phase, scale: scale, at: at))
        }
        // Waits for the server to have taken the input (its events are then in the window's queue): a `settle`
        // step right after it looks at an app that has them. Flushed only, a loaded server sent Escape back
        // after settle's first look, which found the photo still at rest and went on (a test's flake).
        XSync(display, 0)
        return nil
    }

    /// The server's time now, from the last time it told us.
    private var serverNow: Time {
        let elapsed = Date().timeIntervalSinceReferenceDate - serverTime.at
        return Time(serverTime.ms + UInt(max(0, elapsed * 1000)))
    }

    private func move(_ p: Point) {
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, XDefaultRootWindow(display), Int32(p.x.rounded()), Int32(p.y.rounded()),
                              &x, &y, &child)
        XTestFakeMotionEvent(display, -1, x, y, 0)
    }

    /// Gives the window the keyboard when keys would miss it: without a window manager the focus
    /// follows the pointer, and a script's keys sent while the pointer is outside the window (a screen
    /// larger than the window, a script that starts with a key) would go to the root. Where a window
    /// manager keeps the focus (weston's takes it back from a client), or the pointer is over the
    /// window, the focus is left as it is.
    private func focus() {
        var focused: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focused, &revert)
        guard focused == Window(PointerRoot), !pointerIsOverWindow else { return }
        XSetInputFocus(display, window, Int32(RevertToPointerRoot), Time(CurrentTime))
    }

    private var pointerIsOverWindow: Bool {
        var root: Window = 0, child: Window = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        var buttons: UInt32 = 0
        var attributes = XWindowAttributes()
        guard XQueryPointer(display, window, &root, &child, &rootX, &rootY, &x, &y, &buttons) != 0,
              XGetWindowAttributes(display, window, &attributes) != 0 else { return false }
        return x >= 0 && y >= 0 && x < attributes.width && y < attributes.height
    }

    private func notches(_ n: Int, up: UInt32, down: UInt32) {
        for _ in 0..<abs(n) {
            XTestFakeButtonEvent(display, n < 0 ? up : down, 1, 0)
            XTestFakeButtonEvent(display, n < 0 ? up : down, 0, 0)
        }
    }

    /// Presses a key by keysym name, with Shift when the symbol is on the shifted level.
    /// Presses and releases the key, with Shift if the keysym needs it, and the modifiers held.
    private func key(_ name: String, modifiers: Modifiers) {
        let sym = XStringToKeysym(name)
        let code = XKeysymToKeycode(display, sym)
        guard sym != 0, code != 0 else { return }
        var held: [KeySym] = []
        if XkbKeycodeToKeysym(display, code, 0, 0) != sym || modifiers.contains(.shift) { held.append(KeySym(XK_Shift_L)) }
        if modifiers.contains(.control) { held.append(KeySym(XK_Control_L)) }
        if modifiers.contains(.alt) { held.append(KeySym(XK_Alt_L)) }
        let heldCodes = held.map { UInt32(XKeysymToKeycode(display, $0)) }
        for modifier in heldCodes { XTestFakeKeyEvent(display, modifier, 1, 0) }
        XTestFakeKeyEvent(display, UInt32(code), 1, 0)
        XTestFakeKeyEvent(display, UInt32(code), 0, 0)
        for modifier in heldCodes.reversed() { XTestFakeKeyEvent(display, modifier, 0, 0) }
    }

    private func pinchEvent(_ phase: TouchPhase, scale: Double, at: Point) -> XIGesturePinchEvent {
        var e = XIGesturePinchEvent()
        e.type = GenericEvent
        e.evtype = switch phase {
        case .begin: XI_GesturePinchBegin
        case .update: XI_GesturePinchUpdate
        case .end, .cancel: XI_GesturePinchEnd
        }
        if phase == .cancel { e.flags = Int32(XIGesturePinchEventCancelled) }
        e.scale = scale
        e.event_x = at.x
        e.event_y = at.y
        e.event = window
        e.time = serverNow
        return e
    }

    private func touchEvent(_ phase: TouchPhase, id: Int, at: Point) -> XIDeviceEvent {
        var e = XIDeviceEvent()
        e.type = GenericEvent
        e.evtype = switch phase {
        case .begin: XI_TouchBegin
        case .update: XI_TouchUpdate
        case .end, .cancel: XI_TouchEnd
        }
        e.detail = Int32(id)
        e.event_x = at.x
        e.event_y = at.y
        e.event = window
        e.time = serverNow
        return e
    }
}
