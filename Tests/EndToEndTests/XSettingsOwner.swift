import CX11
import Foundation

/// A small XSETTINGS manager for a test, as gsd-xsettings or xsettingsd is on a desktop: a window of
/// the test's own connection that owns `_XSETTINGS_S0` and holds the settings in
/// `_XSETTINGS_SETTINGS`, written here in most-significant-byte-first order (the spec allows either),
/// and tells the clients it took the selection (a MANAGER message to the root window).
final class XSettingsOwner {
    private let client: XTestClient
    let window: Window

    /// Integer settings only: what the tests need (`Gtk/EnableAnimations`).
    init(client: XTestClient, integers: [String: Int32]) {
        self.client = client
        let display = client.display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        set(integers)
        let selection = client.atom("_XSETTINGS_S0")
        XSetSelectionOwner(display, selection, window, UInt(CurrentTime))
        var message = XEvent()
        message.xclient.type = ClientMessage
        message.xclient.window = XDefaultRootWindow(display)
        message.xclient.message_type = client.atom("MANAGER")
        message.xclient.format = 32
        message.xclient.data.l.0 = CLong(CurrentTime)
        message.xclient.data.l.1 = CLong(selection)
        message.xclient.data.l.2 = CLong(window)
        XSendEvent(display, XDefaultRootWindow(display), 0, StructureNotifyMask, &message)
        XSync(display, 0)
    }

    /// Publishes `integers` as the settings now (as a settings daemon does when a switch is flipped).
    func set(_ integers: [String: Int32]) {
        let property = client.atom("_XSETTINGS_SETTINGS")
        let bytes = XSettingsOwner.encode(integers)
        bytes.withUnsafeBufferPointer { buffer in
            _ = XChangeProperty(client.display, window, property, property, 8, PropModeReplace, buffer.baseAddress, Int32(buffer.count))
        }
        XSync(client.display, 0)
    }

    deinit {
        XDestroyWindow(client.display, window)
        XSync(client.display, 0)
    }

    /// The property's bytes: byte order, serial, count, then each setting (type 0, the name padded to
    /// four bytes, its last-change serial, the value).
    static func encode(_ integers: [String: Int32]) -> [UInt8] {
        func card32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var bytes: [UInt8] = [1, 0, 0, 0] + card32(7) + card32(UInt32(integers.count))
        for (name, value) in integers.sorted(by: { $0.key < $1.key }) {
            let utf8 = Array(name.utf8)
            bytes += [0, 0, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)]
            bytes += utf8 + [UInt8](repeating: 0, count: (4 - utf8.count % 4) % 4)
            bytes += card32(3) + card32(UInt32(bitPattern: value))
        }
        return bytes
    }
}
