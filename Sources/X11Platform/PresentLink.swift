import CX11
import CXCB
import Glibc
import WindowSystem

/// The X Present extension on the window: a frame goes to the screen at a refresh (PresentPixmap of
/// a shared-memory buffer's pixmap, always copied, never flipped, so that the buffer is free again
/// once its present completes), and each completion comes back, in order, with the refresh's counter
/// (MSC) and time (UST, µs on CLOCK_MONOTONIC).
final class PresentLink {
    struct Completion: Equatable, Sendable {
        let msc: UInt64
        let ust: UInt64
    }

    private let connection: OpaquePointer
    private let window: UInt32
    private let eventID: UInt32
    private let queue: OpaquePointer
    /// XFixes regions name the part of a frame that changed; without XFixes the whole frame is sent.
    private let hasRegions: Bool
    private var serial: UInt32 = 0
    /// Completions read from the connection and not yet taken.
    private var arrived: [Completion] = []

    /// Nil when the server has no Present 1.0 or refuses to report on the window.
    init?(display: OpaquePointer, window: Window) {
        connection = XGetXCBConnection(display)
        guard let present = xcb_get_extension_data(connection, photozoom_xcb_present()), present.pointee.present != 0,
              let version = xcb_present_query_version_reply(connection, xcb_present_query_version(connection, 1, 2), nil) else {
            return nil
        }
        free(version)
        self.window = UInt32(window)
        eventID = xcb_generate_id(connection)
        let selected = xcb_present_select_input_checked(connection, eventID, self.window,
                                                        UInt32(XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY.rawValue))
        if let error = xcb_request_check(connection, selected) {
            free(error)
            return nil
        }
        guard let queue = xcb_register_for_special_xge(connection, photozoom_xcb_present(), eventID, nil) else { return nil }
        self.queue = queue
        if let fixes = xcb_get_extension_data(connection, photozoom_xcb_xfixes()), fixes.pointee.present != 0,
           let reply = xcb_xfixes_query_version_reply(connection, xcb_xfixes_query_version(connection, 2, 0), nil) {
            free(reply)
            hasRegions = true
        } else {
            hasRegions = false
        }
    }

    /// Set once `close` gave the queue back.
    private var closed = false

    /// Gives back the completions' queue; before the connection closes (the window's deinit calls it).
    func close() {
        guard !closed else { return }
        closed = true
        xcb_unregister_for_special_event(connection, queue)
    }

    /// A link dropped while its connection is open (the window found no pixmap to present) closes here.
    deinit { close() }

    /// Sends `pixmap` to the window at refresh `msc` (nil: the next one); `area`, the part that changed
    /// since the last present (nil: all of it). `immediately`: copied at once, not at a refresh (it may
    /// tear), once `msc` is reached.
    func present(_ pixmap: Pixmap, atRefresh msc: UInt64?, area: PixelRect?, immediately: Bool = false) {
        serial &+= 1
        var region: UInt32 = 0
        if hasRegions, let area {
            region = xcb_generate_id(connection)
            var rect = xcb_rectangle_t(x: Int16(clamping: area.x), y: Int16(clamping: area.y),
                                       width: UInt16(clamping: area.width), height: UInt16(clamping: area.height))
            xcb_xfixes_create_region(connection, region, 1, &rect)
        }
        xcb_present_pixmap(connection, window, UInt32(pixmap), serial, 0, region, 0, 0, 0, 0, 0,
                           UInt32(XCB_PRESENT_OPTION_COPY.rawValue | (immediately ? XCB_PRESENT_OPTION_ASYNC.rawValue : 0)),
                           msc ?? 0, 0, 0, 0, nil)
        if region != 0 { xcb_xfixes_destroy_region(connection, region) }
        xcb_flush(connection)
    }

    /// Whether a completion waits to be taken (read from the connection already, or now).
    var hasCompletions: Bool {
        read()
        return !arrived.isEmpty
    }

    /// The completions that arrived since the last call.
    func takeCompletions() -> [Completion] {
        read()
        defer { arrived = [] }
        return arrived
    }

    private func read() {
        while let event = xcb_poll_for_special_event(connection, queue) {
            defer { free(event) }
            let generic = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_present_generic_event_t.self)
            guard generic.pointee.evtype == UInt16(XCB_PRESENT_COMPLETE_NOTIFY) else { continue }
            let complete = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_present_complete_notify_event_t.self).pointee
            arrived.append(Completion(msc: complete.msc, ust: complete.ust))
        }
    }
}
