import CX11
import Geometry
import Input

/// Core X11 input events to platform-free ones. Pure functions of the event struct (keys also
/// read the server's keymap through `XLookupString`).
enum X11InputTranslator {
    static func key(_ event: inout XKeyEvent) -> InputEvent? {
        var keysym: KeySym = 0
        var buffer = [CChar](repeating: 0, count: 8)
        _ = XLookupString(&event, &buffer, Int32(buffer.count), &keysym, nil)
        guard keysym != 0, let name = XKeysymToString(keysym) else { return nil }
        return .key(name: String(cString: name), modifiers: modifiers(event.state))
    }

    static func pointer(_ event: XEvent) -> InputEvent? {
        switch event.type {
        case ButtonPress, ButtonRelease:
            let b = event.xbutton
            let at = Point(x: Double(b.x), y: Double(b.y))
            // Buttons 4–7 are wheel notches (up, down, left, right); only presses count.
            switch b.button {
            case 4, 5, 6, 7:
                guard event.type == ButtonPress else { return nil }
                let dy: Double = b.button == 4 ? -1 : b.button == 5 ? 1 : 0
                let dx: Double = b.button == 6 ? -1 : b.button == 7 ? 1 : 0
                return .scroll(dx: dx, dy: dy, unit: .notches, at: at, modifiers: modifiers(b.state))
            default:
                return event.type == ButtonPress
                    ? .pointerDown(at: at, button: Int(b.button), time: serverSeconds(b.time))
                    : .pointerUp(at: at, button: Int(b.button), time: serverSeconds(b.time))
            }
        case MotionNotify:
            let m = event.xmotion
            return .pointerMove(to: Point(x: Double(m.x), y: Double(m.y)), time: serverSeconds(m.time))
        default:
            return nil
        }
    }

    static func modifiers(_ state: UInt32) -> Modifiers {
        var m: Modifiers = []
        if state & UInt32(ShiftMask) != 0 { m.insert(.shift) }
        if state & UInt32(ControlMask) != 0 { m.insert(.control) }
        if state & UInt32(Mod1Mask) != 0 { m.insert(.alt) }
        return m
    }
}

/// The X server's timestamps (ms, wrapping after 49 days) as the seconds events carry: the one
/// place where input time changes unit.
func serverSeconds(_ time: UInt) -> Seconds { Seconds(time) / 1000 }
