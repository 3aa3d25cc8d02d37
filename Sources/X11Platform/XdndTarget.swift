import CX11
import Foundation
import WindowSystem

/// The window's side of XDND (version 5, freedesktop.org): it says it takes drops, accepts a drag
/// that offers `text/uri-list` (or plain text, one path or URI a line), asks the source for the
/// list when it is dropped, and tells the source it is done. The list arrives as `.dropped` lines.
final class XdndTarget {
    static let version: CLong = 5

    private let display: OpaquePointer
    private let window: Window
    private let aware, enter, position, status, leave, drop, finished, selection, typeList, actionCopy, property: Atom
    /// The targets asked for, best first.
    private let wanted: [Atom]
    /// The drag over the window: its source, and the type asked for (nil: nothing we take).
    private var source: Window = 0
    private var type: Atom?
    private var sourceVersion: CLong = 0

    init(display: OpaquePointer, window: Window) {
        self.display = display
        self.window = window
        func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
        aware = atom("XdndAware"); enter = atom("XdndEnter"); position = atom("XdndPosition"); status = atom("XdndStatus")
        leave = atom("XdndLeave"); drop = atom("XdndDrop"); finished = atom("XdndFinished"); selection = atom("XdndSelection")
        typeList = atom("XdndTypeList"); actionCopy = atom("XdndActionCopy"); property = atom("PHOTOZOOM_DROP")
        wanted = ["text/uri-list", "text/plain;charset=utf-8", "UTF8_STRING", "text/plain"].map(atom)
        withUnsafeBytes(of: Self.version) {
            _ = XChangeProperty(display, window, aware, XA_ATOM, 32, PropModeReplace, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    /// Handles an XDND client message or the answer to the list's conversion: nil when the event is
    /// not XDND's; `.some(nil)` when it was handled; the dropped lines when a drop is complete.
    func handle(_ event: inout XEvent) -> [[UInt8]]?? {
        if event.type == SelectionNotify, event.xselection.selection == selection, event.xselection.requestor == window {
            return .some(received(event.xselection))
        }
        guard event.type == ClientMessage, event.xclient.window == window else { return nil }
        let message = event.xclient
        let l = [message.data.l.0, message.data.l.1, message.data.l.2, message.data.l.3, message.data.l.4]
        switch message.message_type {
        case enter:
            source = Window(l[0])
            sourceVersion = l[1] >> 24
            let offered = l[1] & 1 != 0 ? typesListed(by: source) : l[2...4].map { Atom($0) }.filter { $0 != 0 }
            type = wanted.first(where: offered.contains)
        case position:
            guard Window(l[0]) == source else { return .some(nil) }
            send(status, [CLong(window), type != nil ? 1 : 0, 0, 0, type != nil ? CLong(actionCopy) : 0])
        case leave:
            source = 0
            type = nil
        case drop:
            guard Window(l[0]) == source else { return .some(nil) }
            guard let type else {
                finish(accepted: false)
                return .some(nil)
            }
            // The time stamp is there from version 1 on: the source's selection at the drop.
            XConvertSelection(display, selection, type, property, window, Time(sourceVersion >= 1 ? UInt(bitPattern: l[2]) : UInt(CurrentTime)))
            XFlush(display)
        default:
            return nil
        }
        return .some(nil)
    }

    private func received(_ event: XSelectionEvent) -> [[UInt8]]? {
        defer { finish(accepted: event.property != 0) }
        guard event.property != 0 else { return nil }
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, property, 0, 1 << 20, 1, Atom(AnyPropertyType), &actualType, &format, &count, &after,
                                 &data) == Success, let data else { return nil }
        defer { XFree(data) }
        guard format == 8 else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(count)))
        return URIList.lines(bytes)
    }

    private func finish(accepted: Bool) {
        guard source != 0 else { return }
        send(finished, [CLong(window), accepted ? 1 : 0, accepted ? CLong(actionCopy) : 0, 0, 0])
        source = 0
        type = nil
    }

    /// More than three types: the source lists them in its XdndTypeList property.
    private func typesListed(by source: Window) -> [Atom] {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, source, typeList, 0, 1024, 0, XA_ATOM, &actualType, &format, &count, &after, &data) == Success,
              let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: CLong.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
            .map { Atom($0) }
    }

    private func send(_ type: Atom, _ l: [CLong]) { XdndMessage.send(type, to: source, l, on: display) }
}
