import CX11
import Foundation
import Pixels

/// The test's own connection to the server: finds the viewer's window, reads its properties and
/// pixels, and sends it real input through XTest and real messages as a window manager would.
final class XTestClient {
    let display: OpaquePointer

    init(display name: String) throws {
        guard let display = XOpenDisplay(name) else { throw ClientError("cannot open \(name)") }
        self.display = display
        // Xlib's default handler exits the process; a test only wants to know.
        XSetErrorHandler { _, _ in 0 }
    }

    deinit { XCloseDisplay(display) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// The top-level window whose _NET_WM_PID is `pid`, waiting up to `seconds` for it to be mapped
    /// (a child of the root, or of a window manager's frame).
    func window(ofProcess pid: Int32, seconds: Double = 20) -> Window? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            for w in children(of: XDefaultRootWindow(display)).flatMap({ [$0] + children(of: $0) }) {
                var attributes = XWindowAttributes()
                XGetWindowAttributes(display, w, &attributes)
                if attributes.map_state == IsViewable, cardinal(w, "_NET_WM_PID") == Int(pid) { return w }
            }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    func children(of window: Window) -> [Window] {
        var root: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &root, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// A property's raw bytes (format 8) or longs (format 32).
    func property(_ window: Window, _ name: String) -> (type: Atom, format: Int32, bytes: [UInt8], longs: [Int])? {
        var type: Atom = 0, format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom(name), 0, 1024, 0, Atom(AnyPropertyType), &type, &format,
                                 &count, &after, &data) == Success, let data, type != 0 else { return nil }
        defer { XFree(data) }
        if format == 32 {
            let longs = UnsafeRawPointer(data).assumingMemoryBound(to: CLong.self)
            return (type, format, [], (0..<Int(count)).map { Int(longs[$0]) })
        }
        return (type, format, Array(UnsafeBufferPointer(start: data, count: Int(count))), [])
    }

    func cardinal(_ window: Window, _ name: String) -> Int? { property(window, name)?.longs.first }

    /// Sets a CARDINAL property of 8-bit items on the root window, as a colour daemon sets `_ICC_PROFILE`.
    func setRootProperty(_ name: String, bytes: [UInt8]) {
        XChangeProperty(display, XDefaultRootWindow(display), atom(name), XA_CARDINAL, 8, PropModeReplace, bytes, Int32(bytes.count))
        XSync(display, 0)
    }

    func size(of window: Window) -> (Int, Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, window, &attributes)
        return (Int(attributes.width), Int(attributes.height))
    }

    /// The window's pixels as an opaque image.
    func capture(_ window: Window) -> PixelImage? {
        let (w, h) = size(of: window)
        guard let image = XGetImage(display, window, 0, 0, UInt32(w), UInt32(h), UInt(bitPattern: -1), ZPixmap) else {
            return nil
        }
        defer { _ = pz_XDestroyImage(image) }
        let out = PixelImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { out.setPixel(x: x, y: y, 0xFF00_0000 | UInt32(pz_XGetPixel(image, Int32(x), Int32(y)) & 0xFF_FFFF)) }
        }
        return out
    }

    /// What a window manager sends when the user clicks the close button.
    func sendDeleteWindow(_ window: Window) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data.l.0 = CLong(atom("WM_DELETE_WINDOW"))
        event.xclient.data.l.1 = CLong(CurrentTime)
        XSendEvent(display, window, 0, NoEventMask, &event)
        XFlush(display)
    }

    func resize(_ window: Window, width: Int, height: Int) {
        XResizeWindow(display, window, UInt32(width), UInt32(height))
        XFlush(display)
    }

    func movePointer(to x: Int, _ y: Int) {
        XTestFakeMotionEvent(display, -1, Int32(x), Int32(y), 0)
        XSync(display, 0)
    }

    func click(button: UInt32) {
        press(button: button)
        release(button: button)
    }

    func press(button: UInt32) {
        XTestFakeButtonEvent(display, button, 1, 0)
        XSync(display, 0)
    }

    func release(button: UInt32) {
        XTestFakeButtonEvent(display, button, 0, 0)
        XSync(display, 0)
    }

    /// Presses and releases a key, with `holding` (keysym names such as Control_L) held down.
    func press(key name: String, holding: [String] = []) {
        let held = holding.map { UInt32(XKeysymToKeycode(display, XStringToKeysym($0))) }
        for code in held { XTestFakeKeyEvent(display, code, 1, 0) }
        let code = XKeysymToKeycode(display, XStringToKeysym(name))
        XTestFakeKeyEvent(display, UInt32(code), 1, 0)
        XTestFakeKeyEvent(display, UInt32(code), 0, 0)
        for code in held.reversed() { XTestFakeKeyEvent(display, code, 0, 0) }
        XSync(display, 0)
    }
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
