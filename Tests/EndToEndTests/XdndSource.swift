import CX11
import Foundation

/// The test plays a file manager dragging files onto a window, speaking XDND (version 5) through
/// its own X connection: it owns XdndSelection, sends XdndEnter, XdndPosition and XdndDrop, answers
/// the target's request for the list, and reads XdndStatus and XdndFinished.
final class XdndSource {
    private let client: XTestClient
    private var display: OpaquePointer { client.display }
    private let window: Window

    init(client: XTestClient) {
        self.client = client
        window = XCreateSimpleWindow(client.display, XDefaultRootWindow(client.display), 0, 0, 1, 1, 0, 0, 0)
        XFlush(client.display)
    }

    deinit { XDestroyWindow(display, window) }

    /// What the target said: whether it accepted at the position, and whether it finished the drop
    /// having taken it.
    struct Outcome: Equatable {
        var accepted = false
        var finished = false
        var succeeded = false
    }

    /// Drags `list` (offered as `type`) onto `target` at (x, y) and drops it; waits up to
    /// `seconds` for the target's answers.
    func drop(_ list: String, type: String = "text/uri-list", on target: Window, at x: Int, _ y: Int, seconds: Double = 10) -> Outcome {
        var outcome = Outcome()
        let selection = client.atom("XdndSelection"), offered = client.atom(type)
        XSetSelectionOwner(display, selection, window, Time(CurrentTime))
        send("XdndEnter", to: target, [CLong(window), 5 << 24, CLong(offered), 0, 0])
        send("XdndPosition", to: target, [CLong(window), 0, CLong(x << 16 | y), CLong(CurrentTime), CLong(client.atom("XdndActionCopy"))])
        let deadline = Date().addingTimeInterval(seconds)
        var dropped = false
        while Date() < deadline, !outcome.finished {
            guard XPending(display) > 0 else { usleep(10_000); continue }
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case ClientMessage where event.xclient.message_type == client.atom("XdndStatus"):
                outcome.accepted = event.xclient.data.l.1 & 1 == 1
                if !dropped {
                    dropped = true
                    send("XdndDrop", to: target, [CLong(window), 0, CLong(CurrentTime), 0, 0])
                }
            case ClientMessage where event.xclient.message_type == client.atom("XdndFinished"):
                outcome.finished = true
                outcome.succeeded = event.xclient.data.l.1 & 1 == 1
            case SelectionRequest:
                answer(event.xselectionrequest, with: Array(list.utf8))
            default:
                break
            }
        }
        return outcome
    }

    private func answer(_ request: XSelectionRequestEvent, with bytes: [UInt8]) {
        XChangeProperty(display, request.requestor, request.property, request.target, 8, PropModeReplace, bytes, Int32(bytes.count))
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = request.selection
        reply.xselection.target = request.target
        reply.xselection.property = request.property
        reply.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &reply)
        XFlush(display)
    }

    private func send(_ type: String, to target: Window, _ l: [CLong]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = target
        event.xclient.message_type = client.atom(type)
        event.xclient.format = 32
        event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
        XSendEvent(display, target, 0, NoEventMask, &event)
        XFlush(display)
    }
}
