import CX11
import Foundation
import WindowSystem

/// Owns a selection for the window (ICCCM): CLIPBOARD for Ctrl+C, XdndSelection for a drag out. Answers
/// TARGETS and each item's target, sending anything larger than one request in INCR chunks as the
/// requestor reads them.
final class SelectionOwner {
    /// Bytes a property gets at once; more goes in INCR chunks of this size.
    static let chunk = 256 * 1024

    private let display: OpaquePointer
    private let window: Window
    private let selection, targets, incr, atomType: Atom
    private var items: [(atom: Atom, item: ClipboardItem)] = []
    /// Made bytes, kept while the window owns the selection.
    private var made: [Atom: [UInt8]] = [:]
    /// INCR transfers in progress: the requestor's window and property, what is left to send.
    private var transfers: [(requestor: Window, property: Atom, type: Atom, bytes: [UInt8], sent: Int)] = []

    init(display: OpaquePointer, window: Window, selection name: String) {
        self.display = display
        self.window = window
        selection = XInternAtom(display, name, 0)
        targets = XInternAtom(display, "TARGETS", 0)
        incr = XInternAtom(display, "INCR", 0)
        atomType = XA_ATOM
    }

    /// Takes the selection with `items`; false when the server gave it to someone else.
    func offer(_ items: [ClipboardItem], time: Time) -> Bool {
        self.items = items.map { (XInternAtom(display, $0.target, 0), $0) }
        made = [:]
        XSetSelectionOwner(display, selection, window, time)
        return XGetSelectionOwner(display, selection) == window
    }

    /// Handles a selection event, or a property change on a requestor reading INCR; false when the
    /// event is not this selection's.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case SelectionRequest where event.xselectionrequest.selection == selection:
            answer(event.xselectionrequest)
        case SelectionClear where event.xselectionclear.selection == selection:
            items = []
            made = [:]
        case PropertyNotify where event.xproperty.state == PropertyDelete:
            guard let i = transfers.firstIndex(where: { $0.requestor == event.xproperty.window && $0.property == event.xproperty.atom }) else {
                return false
            }
            sendChunk(i)
        default:
            return false
        }
        return true
    }

    private func answer(_ request: XSelectionRequestEvent) {
        // An obsolete requestor names no property: the target's name is used (ICCCM 2.2).
        let property = request.property == 0 ? request.target : request.property
        var granted = true
        if request.target == targets {
            // Format-32 properties are passed as C longs.
            let list = [CLong(targets)] + items.map { CLong($0.atom) }
            list.withUnsafeBytes {
                _ = XChangeProperty(display, request.requestor, property, atomType, 32, PropModeReplace,
                                    $0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(list.count))
            }
        } else if let item = items.first(where: { $0.atom == request.target }), let bytes = made[item.atom] ?? item.item.bytes() {
            made[item.atom] = bytes
            if bytes.count > Self.chunk {
                // INCR: the size first; the data follows each time the requestor deletes the property.
                XSelectInput(display, request.requestor, PropertyChangeMask)
                withUnsafeBytes(of: CLong(bytes.count)) {
                    _ = XChangeProperty(display, request.requestor, property, incr, 32, PropModeReplace,
                                        $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
                }
                transfers.append((request.requestor, property, request.target, bytes, 0))
            } else {
                XChangeProperty(display, request.requestor, property, request.target, 8, PropModeReplace, bytes, Int32(bytes.count))
            }
        } else {
            granted = false
        }
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = request.selection
        reply.xselection.target = request.target
        reply.xselection.property = granted ? property : 0
        reply.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &reply)
        XFlush(display)
    }

    /// The next INCR chunk; an empty one ends the transfer.
    private func sendChunk(_ i: Int) {
        let t = transfers[i]
        let count = min(Self.chunk, t.bytes.count - t.sent)
        t.bytes.withUnsafeBufferPointer {
            _ = XChangeProperty(display, t.requestor, t.property, t.type, 8, PropModeReplace, $0.baseAddress! + t.sent, Int32(count))
        }
        if count == 0 {
            XSelectInput(display, t.requestor, NoEventMask)
            transfers.remove(at: i)
        } else {
            transfers[i].sent += count
        }
        XFlush(display)
    }
}
