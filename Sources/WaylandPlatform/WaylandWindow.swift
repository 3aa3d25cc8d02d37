import Animation
import Cairo
import CCairo
import CWaylandProtocols
import Foundation
import Geometry
import Glibc
import Input
import WindowSystem

/// An xdg_toplevel that shows frames drawn with Cairo in shared-memory buffers and reports the same
/// events the X11 window does. Its decorations are the compositor's where it draws them
/// (xdg-decoration), else its own title bar (`WaylandTitleBar`) above the content. Its size is in device pixels: surface units × `scale` (the buffers are
/// that big; viewporter maps them onto the surface, so a fractional scale stays crisp).
/// Frames are paced by the compositor: when each was shown (`WaylandFrameTimes`) is the `.presented`
/// event the loop's clock learns the refreshes from.
public final class WaylandWindow: PlatformWindow {
    public private(set) var size: Size
    public var pacesByRefresh: Bool { true }
    public private(set) var refreshRate: Double?
    /// Two frames may wait in the compositor: the buffers are three (`ShmFrameBuffers`).
    public var framesInFlight: Int { 2 }
    /// The compositor's repaint deadline is learnt from its feedback.
    public var refreshLead: Double { 0 }
    /// Where presentation feedback comes.
    public var presentsOnAGrid: Bool { frameTimes.feedbackComes }
    /// A commit replaces the buffer the compositor has not shown yet.
    public var holdsFramesForTheirRefresh: Bool { false }
    /// The refreshes are counted here, from the compositor's answers to frames committed.
    public var countsRefreshesWhileIdle: Bool { false }
    /// Where the compositor makes virtual pointers and keyboards for its clients (wlroots' do).
    public var injectsInput: Bool { injector != nil }

    private let connection: WaylandDisplay
    private let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private var viewport: OpaquePointer?
    private var decoration: OpaquePointer?
    private let buffers: ShmFrameBuffers
    private let seat: WaylandSeat?
    /// The clipboard and drops, where the compositor has a data device manager.
    private let dataDevice: WaylandDataDevice?
    /// A script's input, through the compositor.
    private var injector: WaylandInputInjector?
    /// Device pixels a surface unit: what the compositor says suits the surface (`SurfaceScale`), unless
    /// the user fixed it (`--scale`).
    private var scale: Double
    private var surfaceScale: SurfaceScale<OpaquePointer>
    private let followsSurfaceScale: Bool
    /// The surface's fractional-scale object, where the compositor offers the protocol.
    private var fractionalScale: OpaquePointer?
    private var pending: [WindowEvent] = []

    /// What the last xdg_toplevel.configure asked (surface units; 0: the window's choice) until its
    /// xdg_surface.configure applies it.
    private var askedSize = (width: Int32(0), height: Int32(0))
    private var askedFullScreen = false, askedMaximized = false, askedTiled = false
    private var isFullScreen = false, isMaximized = false
    /// Full screen, maximized or tiled: the compositor's size holds, the window can't choose its own.
    private var isConstrained = false
    /// The title bar drawn here when the compositor draws none.
    private var titleBar: WaylandTitleBar?
    /// Whether a title bar was ever made here (one is made again for a new scale).
    private var drewOwnTitleBar = false
    /// Whether the compositor said it draws the decorations (or no manager: it does not).
    private var decoratedByCompositor = false
    private var title: String
    private var isConfigured = false
    /// The surface size, surface units.
    private var logicalSize: (width: Int, height: Int)
    /// When each frame was shown.
    private let frameTimes: WaylandFrameTimes

    /// The smallest window, surface units.
    static let minimumSize = (width: Int32(200), height: Int32(150))

    init(connection: WaylandDisplay, size: Size, scale: Double, followingDesktopScale: Bool, title: String) throws {
        self.connection = connection
        guard let compositor = connection.global("wl_compositor"), let shm = connection.global("wl_shm"),
              let wmBase = connection.global("xdg_wm_base"),
              let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            throw WaylandError.lost(connection.socketName)
        }
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        self.title = title
        // Without viewporter the buffers can only be a whole multiple of the surface.
        self.scale = connection.global("wp_viewporter") == nil ? max(1, scale.rounded()) : scale
        surfaceScale = SurfaceScale(opening: self.scale)
        followsSurfaceScale = followingDesktopScale
        logicalSize = (max(1, Int((size.width / self.scale).rounded())), max(1, Int((size.height / self.scale).rounded())))
        self.size = Size(width: (Double(logicalSize.width) * self.scale).rounded(), height: (Double(logicalSize.height) * self.scale).rounded())
        buffers = ShmFrameBuffers(shm: shm)
        seat = connection.seat
        if let manager = connection.global("wl_data_device_manager"), let seatProxy = connection.global("wl_seat") {
            dataDevice = WaylandDataDevice(display: connection.display, manager: manager, seat: seatProxy)
        } else {
            dataDevice = nil
        }
        refreshRate = connection.refreshRate
        frameTimes = WaylandFrameTimes(surface: surface, presentation: connection.global("wp_presentation"), refreshRate: refreshRate)

        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(surface, &Self.surfaceListener, me)
        xdg_surface_add_listener(xdgSurface, &Self.xdgSurfaceListener, me)
        xdg_toplevel_add_listener(toplevel, &Self.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, "photozoom")
        xdg_toplevel_set_min_size(toplevel, Self.minimumSize.width, Self.minimumSize.height)
        if let viewporter = connection.global("wp_viewporter") {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            if let manager = connection.global("wp_fractional_scale_manager_v1"),
               let made = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface) {
                fractionalScale = made
                wp_fractional_scale_v1_add_listener(made, &Self.fractionalScaleListener, me)
            }
        } else if self.scale > 1 {
            wl_surface_set_buffer_scale(surface, Int32(self.scale))
        }
        if let manager = connection.global("zxdg_decoration_manager_v1") {
            decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
            if let decoration {
                zxdg_toplevel_decoration_v1_add_listener(decoration, &Self.decorationListener, me)
                zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
            }
        }
        seat?.cursor = WaylandCursor(shm: shm, compositor: compositor, scale: self.scale)
        seat?.deliver = { [unowned self] in pending.append(.input($0)) }
        seat?.titleBarAction = { [unowned self] in titleBarAsked($0, serial: $1) }
        dataDevice?.dropped = { [unowned self] in pending.append(.dropped($0)) }
        dataDevice?.dragMoved = { [unowned self] in seat?.dragMoved(x: $0, y: $1, time: $2) }
        dataDevice?.dragEnded = { [unowned self] in seat?.dragEnded(taken: $0) }
        frameTimes.report = { [unowned self] in pending.append(.presented(msc: $0, time: $1)) }
        if let seat {
            injector = WaylandInputInjector(connection: connection, seat: seat) { [unowned self] in pending.append(.input($0)) }
        }
        // The first commit has no buffer: the compositor answers with the first configure.
        wl_surface_commit(surface)
        while !isConfigured {
            guard wl_display_dispatch(connection.display) >= 0 else { throw WaylandError.lost(connection.socketName) }
        }
        pending.removeAll { if case .resized = $0 { true } else { false } }   // the size the window starts at
        applyViewport()
    }

    /// The title bar, made the first time the compositor leaves the decorations to the window.
    private func ownTitleBar() -> WaylandTitleBar? {
        if titleBar == nil, let compositor = connection.global("wl_compositor"), let subcompositor = connection.global("wl_subcompositor"),
           let shm = connection.global("wl_shm") {
            titleBar = WaylandTitleBar(compositor: compositor, subcompositor: subcompositor, shm: shm,
                                       viewporter: connection.global("wp_viewporter"), parent: surface, scale: scale, title: title)
            seat?.titleBar = titleBar
            if !drewOwnTitleBar { connection.logger.debug("the compositor draws no title bar: the window draws its own") }
            drewOwnTitleBar = true
        }
        return titleBar
    }

    /// Whether the window shows its own title bar now (not in full screen).
    private var showsTitleBar: Bool { !decoratedByCompositor && !isFullScreen && titleBar != nil }

    /// The bar's height above the content, surface units (0 without one).
    private var titleBarHeight: Int { showsTitleBar ? WaylandTitleBar.height : 0 }

    /// Lays the bar out over the content's width, or hides it, and tells the compositor what the window
    /// is (content and bar).
    private func placeTitleBar() {
        if !decoratedByCompositor, !isFullScreen, let bar = ownTitleBar() {
            bar.show(width: logicalSize.width, title: title)
        } else {
            titleBar?.hide()
        }
        let bar = titleBarHeight
        xdg_surface_set_window_geometry(xdgSurface, 0, -Int32(bar), Int32(logicalSize.width), Int32(logicalSize.height + bar))
    }

    private func titleBarAsked(_ action: WaylandTitleBar.Action, serial: UInt32) {
        guard let seatProxy = connection.global("wl_seat") else { return }
        switch action {
        case .move: xdg_toplevel_move(toplevel, seatProxy, serial)
        case .close: pending.append(.closeRequested)
        case .toggleMaximized: if isMaximized { xdg_toplevel_unset_maximized(toplevel) } else { xdg_toplevel_set_maximized(toplevel) }
        case .windowMenu(let x, let y): xdg_toplevel_show_window_menu(toplevel, seatProxy, serial, x, y)
        }
        _ = wl_display_flush(connection.display)
    }

    deinit {
        titleBar = nil
        seat?.titleBar = nil
        seat?.deliver = { _ in }
        seat?.titleBarAction = { _, _ in }
        seat?.cursor = nil
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
        _ = wl_display_flush(connection.display)
    }

    // MARK: Frames

    public func present(area: PixelRect?, atRefresh msc: UInt64?, _ draw: (OpaquePointer) -> Void) throws(CairoError) {
        buffers.resize(width: Int(size.width), height: Int(size.height))
        let buffer: ShmFrameBuffers.Buffer?
        do { buffer = try buffers.next() } catch { throw CairoError(doing: "making a frame buffer", status: error.description) }
        // Every buffer is still the compositor's: this frame is left out (the clock hears of no frame).
        guard let buffer else { return }
        let drawn = area.map { area in buffer.stale.map { area.union($0) } ?? area }
        try FrameDrawing.draw(on: buffer.surface, clippedTo: drawn, draw)
        cairo_surface_flush(buffer.surface)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        let damage = drawn ?? PixelRect(x: 0, y: 0, width: buffers.width, height: buffers.height)
        wl_surface_damage_buffer(surface, Int32(damage.x), Int32(damage.y), Int32(damage.width), Int32(damage.height))
        frameTimes.askForNextCommit()
        wl_surface_commit(surface)
        buffers.attached(buffer, drew: drawn)
        _ = wl_display_flush(connection.display)
    }

    // MARK: Events

    public func events(waitingUpTo timeout: Double?, orUntilReadable wakeDescriptor: Int32?) -> [WindowEvent] {
        let display = connection.display
        dispatchPending()
        seat?.repeatKeys(now: MonotonicClock.seconds())
        if pending.isEmpty {
            while wl_display_prepare_read(display) != 0 { dispatchPending() }
            _ = wl_display_flush(display)   // what does not fit now goes with the next flush
            var wait = timeout
            if let next = seat?.nextRepeat { wait = min(wait ?? .infinity, max(0, next - MonotonicClock.seconds())) }
            let readable = ReadableWait.wait(for: [wl_display_get_fd(display)] + (wakeDescriptor.map { [$0] } ?? []), upTo: wait)
            if readable[0] {
                if wl_display_read_events(display) < 0 { lost() }
            } else {
                wl_display_cancel_read(display)
            }
            dispatchPending()
            seat?.repeatKeys(now: MonotonicClock.seconds())
        }
        defer { pending = [] }
        return pending
    }

    private func dispatchPending() {
        if wl_display_dispatch_pending(connection.display) < 0 { lost() }
    }

    /// The compositor went away or ended the connection: one line, as a lost X server gives.
    private func lost() -> Never {
        var reason = String(cString: strerror(wl_display_get_error(connection.display)))
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(connection.display, &interface, &id)
        if let name = interface?.pointee.name { reason = "protocol error \(code) on \(String(cString: name))#\(id)" }
        FileHandle.standardError.write(Data("photozoom: lost the connection to the Wayland compositor \(connection.socketName) (\(reason))\n".utf8))
        exit(1)
    }

    public func monotonicTime(ofInputTime seconds: Double) -> Double? {
        MillisecondClock.monotonicTime(ofEventTime: seconds)
    }

    public func inject(_ event: InputEvent) { injector?.inject(event) }

    public func setTitle(_ title: String) {
        self.title = title
        xdg_toplevel_set_title(toplevel, title)
        if showsTitleBar { titleBar?.show(width: logicalSize.width, title: title) }
        _ = wl_display_flush(connection.display)
    }

    public func toggleFullScreen() {
        if isFullScreen { xdg_toplevel_unset_fullscreen(toplevel) } else { xdg_toplevel_set_fullscreen(toplevel, nil) }
        _ = wl_display_flush(connection.display)
    }

    /// Granted where the compositor leaves the size to the window (floating: not full screen, maximized
    /// or tiled); the next frame has it.
    public func requestResize(to newSize: Size) {
        guard !isConstrained else { return }
        resize(toSurfaceUnits: (max(1, Int((newSize.width / scale).rounded())), max(1, Int((newSize.height / scale).rounded()))))
        placeTitleBar()
    }

    /// Taken as of the newest key press, button press or touch (the compositor checks it is recent).
    /// The compositor carries the drag (`wl_data_device.start_drag`, from the press that lifted the photo):
    /// the window sees the drag's moves over itself and its end, not the pointer's.
    public func offerDrag(_ items: [ClipboardItem]) -> Bool {
        guard let dataDevice, let serial = seat?.lastSerial, serial != 0 else { return false }
        return dataDevice.startDrag(items, from: surface, serial: serial)
    }

    public func offerClipboard(_ items: [ClipboardItem]) -> Bool {
        guard let dataDevice, let serial = seat?.lastSerial, serial != 0 else { return false }
        defer { _ = wl_display_flush(connection.display) }
        return dataDevice.offerClipboard(items, serial: serial)
    }

    // MARK: Configure

    private func configure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        isConfigured = true
        isFullScreen = askedFullScreen
        isMaximized = askedMaximized
        isConstrained = askedFullScreen || askedMaximized || askedTiled
        if decoration == nil { decoratedByCompositor = false }
        if !decoratedByCompositor { _ = ownTitleBar() }
        // The size asked is the window's: its bar's too.
        let asked = (askedSize.width > 0 ? Int(askedSize.width) : logicalSize.width,
                     askedSize.height > 0 ? max(1, Int(askedSize.height) - titleBarHeight) : logicalSize.height)
        resize(toSurfaceUnits: asked)
        placeTitleBar()
        // A configure must be answered with a commit; the loop's next frame is it.
        pending.append(.exposed)
    }

    private func resize(toSurfaceUnits units: (width: Int, height: Int)) {
        guard units != logicalSize else { return }
        logicalSize = units
        size = Size(width: (Double(units.width) * scale).rounded(), height: (Double(units.height) * scale).rounded())
        applyViewport()
        pending.append(.resized(size))
    }

    private func applyViewport() {
        if let viewport { wp_viewport_set_destination(viewport, Int32(logicalSize.width), Int32(logicalSize.height)) }
    }

    /// The window is on `output` now: its rate is the one frames are paced at, and its scale counts.
    private func entered(_ output: OpaquePointer?) {
        guard let output, let entered = connection.outputs.values.first(where: { $0.proxy == output }) else { return }
        surfaceScale.entered(output, scale: entered.fractionalScale)
        scaleMayHaveChanged()
        guard let rate = entered.refreshRate, rate != refreshRate else { return }
        refreshRate = rate
        frameTimes.refreshRate = rate
        pending.append(.refreshRateChanged(rate))
    }

    private func left(_ output: OpaquePointer?) {
        guard let output else { return }
        surfaceScale.left(output)
        scaleMayHaveChanged()
    }

    /// The compositor says another scale suits the surface (it moved to another output, or the output's
    /// scale changed): from the next frame the buffers are drawn at it, the window as big on screen as
    /// before, its bar and cursor redrawn for it.
    private func scaleMayHaveChanged() {
        var next = surfaceScale.current
        if viewport == nil { next = max(1, next.rounded()) }   // without viewporter, whole multiples only
        guard followsSurfaceScale, next != scale else { return }
        connection.logger.debug("the window is drawn at \(next)× (was \(scale)×)")
        scale = next
        if viewport == nil { wl_surface_set_buffer_scale(surface, Int32(next)) }
        size = Size(width: (Double(logicalSize.width) * scale).rounded(), height: (Double(logicalSize.height) * scale).rounded())
        if let shm = connection.global("wl_shm"), let compositor = connection.global("wl_compositor") {
            seat?.cursor = WaylandCursor(shm: shm, compositor: compositor, scale: scale)
        }
        if titleBar != nil {
            titleBar = nil
            seat?.titleBar = nil
            placeTitleBar()
        }
        pending.append(.scaleChanged(scale))
    }

    // MARK: Listeners

    private static func window(_ data: UnsafeMutableRawPointer?) -> WaylandWindow? {
        data.map { Unmanaged<WaylandWindow>.fromOpaque($0).takeUnretainedValue() }
    }

    private nonisolated(unsafe) static var surfaceListener = wl_surface_listener(
        enter: { data, _, output in window(data)?.entered(output) },
        leave: { data, _, output in window(data)?.left(output) })

    private nonisolated(unsafe) static var fractionalScaleListener = wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, numerator in
            guard let w = window(data) else { return }
            w.surfaceScale.preferredScale(numerator)
            w.scaleMayHaveChanged()
        })

    private nonisolated(unsafe) static var xdgSurfaceListener = xdg_surface_listener(
        configure: { data, _, serial in window(data)?.configure(serial: serial) })

    private nonisolated(unsafe) static var toplevelListener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            guard let w = window(data) else { return }
            w.askedSize = (max(0, width), max(0, height))
            var stateValues: [UInt32] = []
            if let states, states.pointee.size > 0, let base = states.pointee.data {
                let values = base.assumingMemoryBound(to: UInt32.self)
                stateValues = (0..<(states.pointee.size / MemoryLayout<UInt32>.size)).map { values[$0] }
            }
            w.askedFullScreen = stateValues.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue)
            w.askedMaximized = stateValues.contains(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue)
            w.askedTiled = stateValues.contains { [XDG_TOPLEVEL_STATE_TILED_LEFT, XDG_TOPLEVEL_STATE_TILED_RIGHT,
                                                   XDG_TOPLEVEL_STATE_TILED_TOP, XDG_TOPLEVEL_STATE_TILED_BOTTOM].map(\.rawValue).contains($0) }
        },
        close: { data, _ in window(data)?.pending.append(.closeRequested) },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in })

    private nonisolated(unsafe) static var decorationListener = zxdg_toplevel_decoration_v1_listener(
        configure: { data, _, mode in
            window(data)?.decoratedByCompositor = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
        })
}
