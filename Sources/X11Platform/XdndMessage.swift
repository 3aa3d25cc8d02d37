import CX11

/// XDND's messages: a ClientMessage of five longs sent straight to the other side's window.
enum XdndMessage {
    static func send(_ type: Atom, to target: Window, _ l: [CLong], on display: OpaquePointer) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = target
        event.xclient.message_type = type
        event.xclient.format = 32
        event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
        XSendEvent(display, target, 0, NoEventMask, &event)
        XFlush(display)
    }
}
