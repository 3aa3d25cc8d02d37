import CWaylandProtocols
import Foundation
import Glibc
import Threads
import WindowSystem

/// The seat's data device: the clipboard the window offers (Ctrl+C: each form of the photo made when a
/// program pastes it, written on a thread of its own), files dropped on the window (the source's
/// `text/uri-list`, read as XDND's is on X11), and a photo dragged out of it (the compositor carries the
/// drag: the window sees its moves over itself, and its end).
final class WaylandDataDevice {
    private let display: OpaquePointer
    private let manager: OpaquePointer
    private let device: OpaquePointer
    /// The clipboard's source while the window holds it, and its forms by MIME type.
    private var source: OpaquePointer?
    private var items: [String: ClipboardItem] = [:]
    /// Offers the compositor announced, with the MIME types each has (until used or replaced).
    private var offers: [OpaquePointer: [String]] = [:]
    /// The offer being dragged over the window, if any.
    private var dragged: OpaquePointer?
    /// Where a drop's lines go.
    var dropped: ([[UInt8]]) -> Void = { _ in }
    /// A photo dragged out: its source while the drag lasts (and until the program that took it read it),
    /// its forms, and whether its end was told.
    private var dragSource: OpaquePointer?
    private var dragItems: [String: ClipboardItem] = [:]
    private var dragOver = false
    /// The drag out moved over the window (surface units, the event's time), and ended: taken by a program or not.
    var dragMoved: (Double, Double, UInt32) -> Void = { _, _, _ in }
    var dragEnded: (Bool) -> Void = { _ in }

    /// A drop's list is read for at most this long (s), and this many bytes.
    static let dropTimeout = 2.0
    static let dropLimit = 16 << 20
    static let uriList = "text/uri-list"

    init?(display: OpaquePointer, manager: OpaquePointer, seat: OpaquePointer) {
        guard let device = wl_data_device_manager_get_data_device(manager, seat) else { return nil }
        self.display = display
        self.manager = manager
        self.device = device
        wl_data_device_add_listener(device, &Self.deviceListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let source { wl_data_source_destroy(source) }
        if let dragSource { wl_data_source_destroy(dragSource) }
        for offer in offers.keys { wl_data_offer_destroy(offer) }
        if wl_proxy_get_version(device) >= 2 { wl_data_device_release(device) } else { wl_data_device_destroy(device) }
    }

    // MARK: Clipboard

    /// Takes the clipboard with `items`, as of the input event `serial` (the key press that asked);
    /// false when the compositor would not take a source.
    func offerClipboard(_ offered: [ClipboardItem], serial: UInt32) -> Bool {
        guard let made = wl_data_device_manager_create_data_source(manager) else { return false }
        if let source { wl_data_source_destroy(source) }
        source = made
        items = Dictionary(offered.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
        wl_data_source_add_listener(made, &Self.sourceListener, Unmanaged.passUnretained(self).toOpaque())
        for item in offered { wl_data_source_offer(made, item.target) }
        wl_data_device_set_selection(device, made, serial)
        return true
    }

    // MARK: Drags out

    /// The compositor carries a drag of `offered` from `surface`, begun by the press of input `serial`
    /// (the button or finger still down); false when it would not take a source.
    func startDrag(_ offered: [ClipboardItem], from surface: OpaquePointer, serial: UInt32) -> Bool {
        guard let made = wl_data_device_manager_create_data_source(manager) else { return false }
        if let dragSource { wl_data_source_destroy(dragSource) }
        dragSource = made
        dragOver = false
        dragItems = Dictionary(offered.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
        wl_data_source_add_listener(made, &Self.sourceListener, Unmanaged.passUnretained(self).toOpaque())
        for item in offered { wl_data_source_offer(made, item.target) }
        if wl_proxy_get_version(made) >= 3 { wl_data_source_set_actions(made, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue) }
        wl_data_device_start_drag(device, made, surface, nil, serial)
        _ = wl_display_flush(display)
        return true
    }

    /// The drag out ended (`taken`: dropped on a program; else let go over nothing, or refused), told once.
    private func dragFinished(taken: Bool) {
        guard dragSource != nil, !dragOver else { return }
        dragOver = true
        dragEnded(taken)
    }

    /// A program pastes (or takes a drop of) `mime`: its bytes go into `fd` from a thread (a photo's PNG is
    /// made then), and the pipe is closed once they are written, or the reader went away.
    private func send(_ mime: String, from asked: OpaquePointer?, to fd: Int32) {
        guard let item = (asked == dragSource ? dragItems : items)[mime] else { close(fd); return }
        Worker.start(named: "photozoom-clipboard") {
            // A reader that closes early must not end the viewer: SIGPIPE is held off this thread (the
            // write then fails with EPIPE).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            defer { close(fd) }
            guard let bytes = item.bytes() else { return }
            var written = 0
            while written < bytes.count {
                let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                written += n
            }
        }
    }

    private func sourceCancelled(_ cancelled: OpaquePointer?) {
        guard let cancelled else { return }
        if cancelled == dragSource {
            dragFinished(taken: false)
            dragSource = nil
            dragItems = [:]
        }
        wl_data_source_destroy(cancelled)
        if cancelled == source {
            source = nil
            items = [:]
        }
    }

    // MARK: Drops

    private func entered(_ offer: OpaquePointer?, serial: UInt32) {
        dragged = offer
        guard let offer else { return }
        // The window's own photo dragged over it is not a drop it takes.
        if dragSource != nil { return wl_data_offer_accept(offer, serial, nil) }
        let takes = offers[offer]?.contains(Self.uriList) == true
        wl_data_offer_accept(offer, serial, takes ? Self.uriList : nil)
        if takes, wl_proxy_get_version(offer) >= 3 {
            let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
            wl_data_offer_set_actions(offer, copy, copy)
        }
    }

    private func left() {
        if let dragged { forget(dragged) }
        dragged = nil
    }

    /// The drag was let go over the window: its list is read (the source writes it once asked), then
    /// the source is told the drop is done.
    private func dropHappened() {
        guard dragSource == nil, let offer = dragged, offers[offer]?.contains(Self.uriList) == true else { left(); return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { left(); return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wl_data_offer_receive(offer, Self.uriList, ends[1])
        close(ends[1])
        _ = wl_display_flush(display)
        let bytes = Self.readAll(ends[0])
        close(ends[0])
        if wl_proxy_get_version(offer) >= 3 { wl_data_offer_finish(offer) }
        left()
        let lines = URIList.lines(bytes)
        if !lines.isEmpty { dropped(lines) }
    }

    /// What `fd` gives until its end, `dropTimeout` passes or `dropLimit` bytes came.
    private static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(dropTimeout)
        while bytes.count < dropLimit {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, ReadableWait.wait(for: [fd], upTo: left).first == true else { break }
            let n = read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return Array(bytes.prefix(dropLimit))
    }

    private func forget(_ offer: OpaquePointer) {
        guard offers.removeValue(forKey: offer) != nil else { return }
        wl_data_offer_destroy(offer)
    }

    // MARK: Listeners

    private static func device(_ data: UnsafeMutableRawPointer?) -> WaylandDataDevice? {
        data.map { Unmanaged<WaylandDataDevice>.fromOpaque($0).takeUnretainedValue() }
    }

    private nonisolated(unsafe) static var deviceListener = wl_data_device_listener(
        data_offer: { data, _, offer in
            guard let d = device(data), let offer else { return }
            d.offers[offer] = []
            wl_data_offer_add_listener(offer, &offerListener, data)
        },
        enter: { data, _, serial, _, _, _, offer in device(data)?.entered(offer, serial: serial) },
        leave: { data, _ in device(data)?.left() },
        motion: { data, _, time, x, y in
            guard let d = device(data), d.dragSource != nil else { return }
            d.dragMoved(wl_fixed_to_double(x), wl_fixed_to_double(y), time)
        },
        drop: { data, _ in device(data)?.dropHappened() },
        selection: { data, _, offer in
            // Another program's clipboard: the viewer pastes nothing, so the offer goes at once.
            guard let d = device(data), let offer else { return }
            d.forget(offer)
        })

    private nonisolated(unsafe) static var offerListener = wl_data_offer_listener(
        offer: { data, offer, mime in
            guard let d = device(data), let offer, let mime else { return }
            d.offers[offer]?.append(String(cString: mime))
        },
        source_actions: { _, _, _ in },
        action: { _, _, _ in })

    private nonisolated(unsafe) static var sourceListener = wl_data_source_listener(
        target: { _, _, _ in },
        send: { data, source, mime, fd in
            guard let d = device(data), let mime else { close(fd); return }
            d.send(String(cString: mime), from: source, to: fd)
        },
        cancelled: { data, source in device(data)?.sourceCancelled(source) },
        dnd_drop_performed: { data, _ in device(data)?.dragFinished(taken: true) },
        dnd_finished: { data, source in
            // The program that took the drop read what it wanted: the source goes.
            guard let d = device(data), let source, source == d.dragSource else { return }
            d.dragSource = nil
            d.dragItems = [:]
            wl_data_source_destroy(source)
        },
        action: { _, _, _ in })
}
