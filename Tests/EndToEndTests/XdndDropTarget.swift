import CX11
import Foundation

/// The test plays a program that takes drops (a file manager, a browser's upload box), speaking XDND
/// (version 5) through its own X connection on a thread of its own: a window that says XdndAware,
/// accepts what is dragged over it, and on the drop reads the source's `text/uri-list` and `image/png`
/// (INCR transfers too) before it says XdndFinished.
final class XdndDropTarget: @unchecked Sendable {
    /// What the drag brought.
    struct Received {
        var offered: [String] = []
        var positions = 0
        var left = false
        var uriList: [UInt8]?
        var png: [UInt8]?
        var finished = false
    }

    private let display: OpaquePointer
    let window: Window
    private let lock = NSLock()
    private var received = Received()
    private var running = true
    private var thread: Thread?

    /// A window at (x, y), `width` × `height`, on the display `name`.
    init(display name: String, x: Int, y: Int, width: Int, height: Int) throws {
        guard let display = XOpenDisplay(name) else { throw ClientError("cannot open \(name)") }
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, 0x336699)
        XSelectInput(display, window, PropertyChangeMask)
        var version = CLong(5)
        withUnsafeBytes(of: &version) {
            _ = XChangeProperty(display, window, atom("XdndAware"), XA_ATOM, 32, PropModeReplace, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        XMapRaised(display, window)
        XSync(display, 0)
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    deinit {
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    /// What came so far.
    var state: Received { lock.withLock { received } }

    /// Stops its thread (before the test ends).
    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(10_000) }
    }

    private func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    private func serve() {
        var source: Window = 0
        while lock.withLock({ running }) {
            guard XPending(display) > 0 else { usleep(5_000); continue }
            var event = XEvent()
            XNextEvent(display, &event)
            guard event.type == ClientMessage else { continue }
            let l = event.xclient.data.l
            switch event.xclient.message_type {
            case atom("XdndEnter"):
                source = Window(l.0)
                let types = [l.2, l.3, l.4].filter { $0 != 0 }.compactMap { name(of: Atom($0)) }
                lock.withLock { received.offered = types }
            case atom("XdndPosition"):
                lock.withLock { received.positions += 1 }
                send("XdndStatus", to: source, [CLong(window), 1, 0, 0, CLong(atom("XdndActionCopy"))])
            case atom("XdndLeave"):
                lock.withLock { received.left = true }
            case atom("XdndDrop"):
                let time = Time(UInt(bitPattern: l.2))
                let uris = convert("text/uri-list", time: time), png = convert("image/png", time: time)
                lock.withLock {
                    received.uriList = uris
                    received.png = png
                }
                send("XdndFinished", to: source, [CLong(window), 1, CLong(atom("XdndActionCopy")), 0, 0])
                lock.withLock { received.finished = true }
            default:
                break
            }
        }
    }

    /// Asks the XdndSelection's owner for `target` and reads it, in INCR chunks if it sends so.
    private func convert(_ target: String, time: Time, seconds: Double = 20) -> [UInt8]? {
        let property = atom("PHOTOZOOM_TEST_DROP")
        XConvertSelection(display, atom("XdndSelection"), atom(target), property, window, time)
        XFlush(display)
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        var incremental = false
        while Date() < deadline {
            guard XPending(display) > 0 else { usleep(2_000); continue }
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == SelectionNotify, !incremental {
                guard event.xselection.property != 0, let (type, chunk) = take(property) else { return nil }
                if type == atom("INCR") { incremental = true; continue }
                return chunk
            }
            if incremental, event.type == PropertyNotify, event.xproperty.atom == property, event.xproperty.state == PropertyNewValue {
                guard let (_, chunk) = take(property) else { return nil }
                if chunk.isEmpty { return bytes }
                bytes += chunk
            }
        }
        return nil
    }

    /// Reads and deletes the property: its type and bytes.
    private func take(_ property: Atom) -> (Atom, [UInt8])? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, property, 0, 1 << 26, 1, Atom(AnyPropertyType), &type, &format, &count, &after, &data) == Success else {
            return nil
        }
        defer { if let data { XFree(data) } }
        let size = format == 32 ? MemoryLayout<CLong>.size : Int(format) / 8
        return (type, data.map { Array(UnsafeBufferPointer(start: $0, count: Int(count) * size)) } ?? [])
    }

    private func name(of atom: Atom) -> String? {
        guard let name = XGetAtomName(display, atom) else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    private func send(_ type: String, to target: Window, _ l: [CLong]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = target
        event.xclient.message_type = atom(type)
        event.xclient.format = 32
        event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
        XSendEvent(display, target, 0, NoEventMask, &event)
        XFlush(display)
    }
}
