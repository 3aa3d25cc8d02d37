import CX11
import Geometry
import Input
import WindowSystem

/// The window's side of XDND as a source (version 5, freedesktop.org): a photo lifted in the window
/// and carried past its edge is offered to the window under the pointer that takes drops. It owns
/// XdndSelection with the items, tells each window the pointer enters (XdndEnter, XdndPosition; one
/// position at a time, as XdndStatus answers), and on release drops there if that window accepted
/// (XdndDrop; it then asks for the items and says XdndFinished), else leaves it (XdndLeave).
final class XdndDragSource {
    static let version: CLong = 5

    private let display: OpaquePointer
    private let window: Window
    private let root: Window
    private let selection: SelectionOwner
    private let aware, enter, position, status, leave, drop, finished, typeList, actionCopy: Atom
    /// The items' types, as offered.
    private var types: [Atom] = []
    /// The window's top-left corner on the root window, device pixels (it does not move under a drag).
    private var origin = (x: 0, y: 0)
    /// The window under the pointer that takes drops, and the XDND version it speaks.
    private var target: (window: Window, version: CLong)?
    /// What its last XdndStatus said.
    private var accepted = false
    /// A position was sent and its XdndStatus has not come: the next one waits (`pendingPosition`).
    private var awaitingStatus = false
    private var pendingPosition: (x: Int, y: Int)?
    /// Let go while a status was awaited: the drop (or leave) follows that status.
    private var releasedAwaitingStatus = false

    /// A lifted photo follows the pointer (from `begin` to the release).
    private(set) var isCarrying = false

    init(display: OpaquePointer, window: Window) {
        self.display = display
        self.window = window
        root = XDefaultRootWindow(display)
        selection = SelectionOwner(display: display, window: window, selection: "XdndSelection")
        func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
        aware = atom("XdndAware"); enter = atom("XdndEnter"); position = atom("XdndPosition"); status = atom("XdndStatus")
        leave = atom("XdndLeave"); drop = atom("XdndDrop"); finished = atom("XdndFinished"); typeList = atom("XdndTypeList")
        actionCopy = atom("XdndActionCopy")
    }

    /// A drag of `items` begins (the button or finger is down in the window); false when the server gave
    /// XdndSelection to someone else.
    func begin(_ items: [ClipboardItem], time: Time) -> Bool {
        end()
        guard selection.offer(items, time: time) else { return false }
        types = items.map { XInternAtom(display, $0.target, 0) }
        // More than three types are listed on the window (Enter carries three).
        types.map { CLong($0) }.withUnsafeBytes {
            _ = XChangeProperty(display, window, typeList, XA_ATOM, 32, PropModeReplace,
                                $0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(types.count))
        }
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        origin = (Int(x), Int(y))
        isCarrying = true
        XFlush(display)
        return true
    }

    /// The window's input while a photo is carried: moves go to the window under the pointer, the
    /// release drops there.
    func follow(_ input: InputEvent) {
        switch input {
        case .pointerMove(let to, _), .touch(.update, _, let to, _): moved(to: to)
        case .pointerUp(let at, 1, _), .touch(.end, _, let at, _):
            moved(to: at)
            released()
        case .touch(.cancel, _, _, _):
            if let target { send(leave, to: target.window, [CLong(window), 0, 0, 0, 0]) }
            end()
        default: break
        }
    }

    /// Handles XdndStatus and XdndFinished, and XdndSelection's requests; false for any other event.
    func handle(_ event: inout XEvent) -> Bool {
        if selection.handle(&event) { return true }
        guard event.type == ClientMessage, event.xclient.window == window,
              [status, finished].contains(event.xclient.message_type) else { return false }
        let l = event.xclient.data.l
        guard let target, Window(l.0) == target.window else { return true }
        if event.xclient.message_type == status {
            accepted = l.1 & 1 != 0
            awaitingStatus = false
            if releasedAwaitingStatus {
                releasedAwaitingStatus = false
                released()
            } else if let next = pendingPosition {
                pendingPosition = nil
                sendPosition(next)
            }
        } else {
            self.target = nil   // finished: the drop is complete (the selection stays ours for a late read)
        }
        return true
    }

    /// The pointer at `point` in the window (device pixels).
    private func moved(to point: Point) {
        guard isCarrying else { return }
        let at = (x: origin.x + Int(point.x.rounded()), y: origin.y + Int(point.y.rounded()))
        let under = awareWindow(atRootX: at.x, y: at.y)
        if under?.window != target?.window {
            if let target { send(leave, to: target.window, [CLong(window), 0, 0, 0, 0]) }
            target = under
            accepted = false
            awaitingStatus = false
            pendingPosition = nil
            if let under {
                let first3 = (types + [0, 0, 0]).prefix(3).map { CLong($0) }
                send(enter, to: under.window, [CLong(window), under.version << 24 | (types.count > 3 ? 1 : 0), first3[0], first3[1], first3[2]])
            }
        }
        guard target != nil else { return }
        if awaitingStatus { pendingPosition = at } else { sendPosition(at) }
    }

    private func sendPosition(_ at: (x: Int, y: Int)) {
        guard let target else { return }
        awaitingStatus = true
        send(position, to: target.window, [CLong(window), 0, CLong(at.x << 16 | at.y & 0xFFFF), CLong(CurrentTime), CLong(actionCopy)])
    }

    /// Let go: a drop where the window under it accepted, else it is left.
    private func released() {
        guard let target else { return end() }
        if awaitingStatus {
            releasedAwaitingStatus = true
            isCarrying = false
            return
        }
        if accepted {
            send(drop, to: target.window, [CLong(window), 0, CLong(CurrentTime), 0, 0])
            isCarrying = false   // the target keeps the drop's state until it finishes
        } else {
            send(leave, to: target.window, [CLong(window), 0, 0, 0, 0])
            end()
        }
    }

    private func end() {
        isCarrying = false
        target = nil
        accepted = false
        awaitingStatus = false
        pendingPosition = nil
        releasedAwaitingStatus = false
    }

    /// The window that takes drops (XdndAware) under the root point, from the top of the stack down;
    /// nil over this window (a photo is not dropped on its own viewer) or where none does.
    private func awareWindow(atRootX x: Int, y: Int) -> (window: Window, version: CLong)? {
        var parent = root
        var child: Window = 0
        var cx: Int32 = 0, cy: Int32 = 0
        // A window manager's frames lie between the root and the application's window: down a few levels.
        for _ in 0..<8 {
            guard XTranslateCoordinates(display, root, parent, Int32(x), Int32(y), &cx, &cy, &child) != 0, child != 0 else { return nil }
            if child == window { return nil }
            if let version = awareVersion(of: child) { return (child, min(version, XdndDragSource.version)) }
            parent = child
        }
        return nil
    }

    private func awareVersion(of candidate: Window) -> CLong? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, candidate, aware, 0, 1, 0, XA_ATOM, &actualType, &format, &count, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 32, count == 1 else { return nil }
        let version = data.withMemoryRebound(to: CLong.self, capacity: 1) { $0.pointee }
        return version >= 3 ? version : nil
    }

    private func send(_ type: Atom, to target: Window, _ l: [CLong]) { XdndMessage.send(type, to: target, l, on: display) }
}
