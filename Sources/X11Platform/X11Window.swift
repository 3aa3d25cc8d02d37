import Cairo
import CCairo
import CX11
import Foundation
import Geometry
import Glibc
import Input
import Logging
import WindowSystem

/// A top-level X window that shows frames drawn with Cairo and reports platform-free events.
public final class X11Window: PlatformWindow {
    public private(set) var size: Size
    public let presentsThroughSharedMemory: Bool
    /// The refresh rate of the output the window is on, Hz (RandR); nil when it says none.
    public private(set) var refreshRate: Double?

    private let display: OpaquePointer
    private let window: Window
    private let atoms: Atoms
    private var presenter: FramePresenter
    /// Frames go to the screen at a refresh through X Present; nil: at once (`presenter.present`).
    private let presentLink: PresentLink?
    /// Whether a frame went up through X Present yet.
    private var hasPresented = false
    private let outputRate: OutputRefreshRate?
    /// Pointer, wheel and touch input through XInput 2.2; core events when the server lacks it.
    private var xi2: XI2Input?
    private let injector: X11InputInjector
    /// Scripted touches, decoded, waiting for the next `events` call.
    private var injected: [WindowEvent] = []
    /// Device pixels a point.
    private let scale: Double
    private let logger: Logger
    private let clipboard: SelectionOwner
    private let dragSource: XdndDragSource
    private let xdnd: XdndTarget
    private let settingsWatch: DesktopSettingsWatch
    /// The server's time in the last event that carried one (selections are taken at a time).
    private var lastServerTime: Time = 0
    /// The window moved or the outputs changed: the refresh rate is read again.
    private var outputMayHaveChanged = false

    struct Atoms {
        let wmProtocols, wmDeleteWindow, netWMName, utf8String, netWMPid: Atom

        init(_ display: OpaquePointer) {
            func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
            wmProtocols = atom("WM_PROTOCOLS")
            wmDeleteWindow = atom("WM_DELETE_WINDOW")
            netWMName = atom("_NET_WM_NAME")
            utf8String = atom("UTF8_STRING")
            netWMPid = atom("_NET_WM_PID")
        }
    }

    /// Opens the display (`nil`: `$DISPLAY`) and maps a window of `size` titled `title`.
    /// `allowSharedMemory: false` forces the `cairo_xlib_surface` path; `passDescriptors: false`, SysV
    /// segments as an MIT-SHM 1.1 server needs; `allowPresent: false`, frames shown at once rather
    /// than at a refresh. `scale`: device pixels a point (X has no scale of its own: the viewer's `--scale` or the
    /// desktop's); the window's input is made points with it.
    public init(displayName: String?, size: Size, scale: Double = 1, title: String, allowSharedMemory: Bool = true,
                passDescriptors: Bool = true, allowPresent: Bool = true, logger: Logger = Logger(label: "photozoom")) throws {
        let name = displayName ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard let display = XOpenDisplay(displayName) else { throw X11Error.cannotOpenDisplay(name) }
        X11ErrorFunnel.install(displayName: name, logger: logger)
        self.display = display
        self.size = size
        self.scale = scale
        self.logger = logger
        atoms = Atoms(display)

        let screen = XDefaultScreen(display)
        let visual = XDefaultVisual(display, screen)!
        let depth = XDefaultDepth(display, screen)
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = 0   // None: no server-side clearing, so no flicker
        // Pointer events come through XInput 2 (selected below), or are added here without it.
        attributes.event_mask = ExposureMask | StructureNotifyMask | KeyPressMask
        X11ErrorFunnel.reset()
        window = XCreateWindow(display, XRootWindow(display, screen), 0, 0,
                               UInt32(size.width), UInt32(size.height), 0, depth, UInt32(InputOutput), visual,
                               UInt(CWBackPixmap | CWEventMask), &attributes)
        // The server answers asynchronously: wait for its verdict before building on the window.
        XSync(display, 0)
        if window == 0 || X11ErrorFunnel.takeError() != nil {
            XCloseDisplay(display)
            throw X11Error.requestFailed("the server refused to create a \(Int(size.width))x\(Int(size.height)) window")
        }

        let isXwayland = XwaylandDetection.isXwayland(display)
        // Xwayland's Present keeps a clock of its own, not the compositor's: a fake 60 Hz one without a GPU, a
        // 17 ms timer for copied frames with one (only a GPU buffer's flip follows the compositor). A frame put
        // up at once is handed to the compositor at its next frame: under sway at 144 Hz, 144 frames a second
        // reached it against 60 through Present.
        let link = allowPresent && allowSharedMemory && !isXwayland ? PresentLink(display: display, window: window) : nil
        // Presented frames have two buffers: one drawn while the other waits for its refresh.
        let shm = allowSharedMemory
            ? SharedMemoryPresenter(display: display, window: window, visual: visual, depth: depth,
                                    width: Int(size.width), height: Int(size.height), presentBuffers: link != nil ? 2 : 1,
                                    passDescriptors: passDescriptors)
            : nil
        presentsThroughSharedMemory = shm != nil
        do {
            presenter = try shm ?? XlibSurfacePresenter(display: display, window: window, visual: visual,
                                                         width: Int(size.width), height: Int(size.height))
        } catch {
            link?.close()
            XDestroyWindow(display, window)
            XCloseDisplay(display)
            throw X11Error.requestFailed("\(error)")
        }
        presentLink = presenter.pixmap != nil ? link : nil
        outputRate = OutputRefreshRate(display: display, window: window)
        injector = X11InputInjector(display: display, window: window)
        clipboard = SelectionOwner(display: display, window: window, selection: "CLIPBOARD")
        dragSource = XdndDragSource(display: display, window: window)
        xdnd = XdndTarget(display: display, window: window)
        settingsWatch = DesktopSettingsWatch(display: display)
        setProperties(title: title)
        xi2 = XI2Input(display: display, window: window)
        if xi2 == nil {
            XSelectInput(display, window, attributes.event_mask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        }
        XMapWindow(display, window)
        XFlush(display)
        refreshRate = outputRate?.read()
        let segments = (presenter as? SharedMemoryPresenter)?.segmentKind ?? ""
        let path = presentLink != nil ? "X Present (\(framesInFlight) MIT-SHM pixmaps, \(segments))"
            : presentsThroughSharedMemory ? "MIT-SHM (\(segments))\(isXwayland && allowPresent ? " at once, Xwayland's Present keeping a clock of its own" : "")"
            : "cairo_xlib_surface"
        let rate = refreshRate.map { String(format: "%.2f Hz", $0) } ?? "unknown"
        logger.debug("window 0x\(String(window, radix: 16)) \(Int(size.width))x\(Int(size.height)), presenting through \(path), output refresh \(rate), input through \(xi2 != nil ? "XInput 2.2" : "core events")")
    }

    deinit {
        presenter.close()
        presentLink?.close()
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    /// The file descriptor of the X connection, for `poll`.
    public var connectionFileDescriptor: Int32 { XConnectionNumber(display) }

    /// Whether frames go to the screen at the display's refreshes (X Present): each `present` is then
    /// followed by a `.presented` event, and the frame must not be drawn again until it came.
    public var pacesByRefresh: Bool { presentLink != nil }

    /// A screen whose mode has no pixel clock (Xvfb's, a VNC server's) refreshes on the X server's timer,
    /// whose counter turns halfway between two refreshes: a frame sent later than half a refresh before
    /// one shows at the next. Known here, the first frames of a motion need not be lost to learn it.
    public var refreshLead: Double { pacesByRefresh && refreshRate == nil ? 0.5 : 0 }

    /// X Present's completions are refreshes (Xvfb's too, on its timer's grid).
    public var presentsOnAGrid: Bool { true }

    /// X Present shows a pixmap at its target refresh, not before.
    public var holdsFramesForTheirRefresh: Bool { pacesByRefresh }

    /// A display's vblank and Xvfb's timer count on while nothing waits.
    public var countsRefreshesWhileIdle: Bool { pacesByRefresh }

    /// Scripts play through XTest and XI2 (`X11InputInjector`).
    public var injectsInput: Bool { true }

    /// How many frames may wait in the server for their refresh at once.
    public var framesInFlight: Int { presentLink != nil ? (presenter as? SharedMemoryPresenter)?.bufferCount ?? 1 : 1 }

    /// Draws a frame with `draw` (given a `cairo_t` whose user space is window pixels) and shows it:
    /// at refresh `msc` when the window paces by refresh (nil: the next one), otherwise at once.
    /// With `area` (window pixels), only that part is drawn (the context is clipped to it) and sent:
    /// the rest of the frame stays as the last one left it.
    public func present(area: PixelRect? = nil, atRefresh msc: UInt64? = nil, _ draw: (OpaquePointer) -> Void) throws(CairoError) {
        let buffers = presentLink != nil ? presenter as? SharedMemoryPresenter : nil
        // Part of a frame drawn into a buffer that missed what the others drew since: that too.
        let drawn = area.map { area in buffers?.staleArea.map { area.union($0) } ?? area }
        try FrameDrawing.draw(on: presenter.surface, clippedTo: drawn, draw)
        if let presentLink, let pixmap = presenter.pixmap {
            cairo_surface_flush(presenter.surface)
            // The window's first frame can't tear (nothing is shown yet): it goes up at once, not at the
            // next refresh (up to a refresh sooner at launch).
            presentLink.present(pixmap, atRefresh: msc, area: area, immediately: !hasPresented)
            hasPresented = true
            buffers?.presented(drew: drawn)
        } else {
            presenter.present(area: area ?? PixelRect(x: 0, y: 0, width: Int(size.width), height: Int(size.height)))
        }
    }

    /// The events that have arrived; waits up to `timeout` seconds (nil: forever) for the X
    /// connection or `wakeDescriptor` to become readable when there are none yet.
    public func events(waitingUpTo timeout: Double?, orUntilReadable wakeDescriptor: Int32? = nil) -> [WindowEvent] {
        if XPending(display) == 0 && injected.isEmpty && !(presentLink?.hasCompletions ?? false) {
            _ = ReadableWait.wait(for: [connectionFileDescriptor] + (wakeDescriptor.map { [$0] } ?? []), upTo: timeout)
        }
        var out = injected
        injected = []
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if let translated = translate(&event) { out.append(translated) }
        }
        if dragSource.isCarrying {
            for case .input(let input) in out { dragSource.follow(input) }
        }
        // The one conversion of the window's input: the server's device pixels into points.
        out = out.map { event in
            guard case .input(let input) = event else { return event }
            return .input(input.scaled(by: 1 / scale))
        }
        for completion in presentLink?.takeCompletions() ?? [] {
            (presenter as? SharedMemoryPresenter)?.completed()
            out.append(.presented(msc: completion.msc, time: Double(completion.ust) / 1e6))
        }
        if outputMayHaveChanged {
            outputMayHaveChanged = false
            let rate = outputRate?.read()
            if rate != refreshRate {
                refreshRate = rate
                out.append(.refreshRateChanged(rate))
            }
        }
        return coalesced(out)
    }

    /// An event's time from an X server (its millisecond clock, as seconds) on CLOCK_MONOTONIC, which
    /// a local server's clock is; nil when it is not (a remote display), as far as that can be told.
    public func monotonicTime(ofInputTime seconds: Double) -> Double? {
        MillisecondClock.monotonicTime(ofEventTime: seconds)
    }

    /// Plays `event` as real input (a script in the window): it comes back through `events`.
    public func inject(_ event: InputEvent) {
        let decoded: InputEvent? = switch injector.inject(event.scaled(by: scale)) {
        case .device(let e)?: xi2?.decode(e)
        case .pinch(let e)?: xi2?.decode(e)
        case nil: nil
        }
        if let decoded { injected.append(.input(decoded)) }
    }

    /// Asks the window manager to toggle full screen (EWMH `_NET_WM_STATE_FULLSCREEN`); a resize
    /// follows when it does. Without a window manager nothing happens.
    public func toggleFullScreen() {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = 2   // _NET_WM_STATE_TOGGLE
        event.xclient.data.l.1 = CLong(XInternAtom(display, "_NET_WM_STATE_FULLSCREEN", 0))
        event.xclient.data.l.3 = 1   // source: an application
        XSendEvent(display, XDefaultRootWindow(display), 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XFlush(display)
    }

    /// Asks the server for a new size, as a user dragging the window's edge would.
    public func requestResize(to newSize: Size) {
        XResizeWindow(display, window, UInt32(newSize.width), UInt32(newSize.height))
        XFlush(display)
    }

    /// Puts `items` on the CLIPBOARD (Ctrl+C); false when the server gave it to someone else.
    public func offerClipboard(_ items: [ClipboardItem]) -> Bool {
        clipboard.offer(items, time: lastServerTime)
    }

    /// Carries a photo lifted in the window past its edge to the window under the pointer that takes
    /// drops (XDND), offering `items`, until the button or finger lets go.
    public func offerDrag(_ items: [ClipboardItem]) -> Bool {
        // At the server's time now: the last event's time may be older than another program's last drag
        // (XI2's events don't set it), and the server would then ignore the take.
        dragSource.begin(items, time: Time(CurrentTime))
    }

    private func translate(_ event: inout XEvent) -> WindowEvent? {
        if let time = X11Window.serverTime(of: event) {
            injector.noteServerTime(time)
            lastServerTime = time
        }
        if clipboard.handle(&event) || dragSource.handle(&event) { return nil }
        if outputRate?.isChange(&event) == true {
            outputMayHaveChanged = true
            return nil
        }
        if let drop = xdnd.handle(&event) { return drop.map(WindowEvent.dropped) }
        if let changed = settingsWatch.handle(&event) { return changed ? .desktopSettingsChanged : nil }
        switch event.type {
        case Expose:
            return event.xexpose.count == 0 ? .exposed : nil
        case ConfigureNotify:
            outputMayHaveChanged = true   // moved, perhaps onto another output
            let newSize = Size(width: Double(event.xconfigure.width), height: Double(event.xconfigure.height))
            guard newSize != size else { return nil }
            resize(to: newSize)
            return .resized(newSize)
        case ClientMessage:
            let message = event.xclient
            if message.message_type == atoms.wmProtocols, Atom(message.data.l.0) == atoms.wmDeleteWindow {
                return .closeRequested
            }
            return nil
        case DestroyNotify:
            return event.xdestroywindow.window == window ? .closeRequested : nil
        case KeyPress:
            return X11InputTranslator.key(&event.xkey).map(WindowEvent.input)
        case ButtonPress, ButtonRelease, MotionNotify:
            return X11InputTranslator.pointer(event).map(WindowEvent.input)
        case GenericEvent:
            return xi2?.translate(&event).map(WindowEvent.input)
        default:
            return nil
        }
    }

    private static func serverTime(of event: XEvent) -> UInt? {
        switch event.type {
        case KeyPress, KeyRelease: return event.xkey.time
        case ButtonPress, ButtonRelease: return event.xbutton.time
        case MotionNotify: return event.xmotion.time
        case PropertyNotify: return event.xproperty.time
        default: return nil
        }
    }

    /// A burst of resizes or exposes needs one redraw: keep the last resize, one expose.
    private func coalesced(_ events: [WindowEvent]) -> [WindowEvent] {
        var out: [WindowEvent] = []
        for e in events {
            if case .resized = e { out.removeAll { if case .resized = $0 { return true } else { return false } } }
            if e == .exposed, out.contains(.exposed) { continue }
            out.append(e)
        }
        return out
    }

    private func resize(to newSize: Size) {
        size = newSize
        do {
            try presenter.resize(width: Int(newSize.width), height: Int(newSize.height))
        } catch {
            logger.error("\(error)")
        }
    }

    /// The title the window manager shows (`_NET_WM_NAME`, and `WM_NAME` for older ones).
    public func setTitle(_ title: String) {
        // WM_NAME for older window managers, converted to what its encoding can hold.
        title.withCString { Xutf8SetWMProperties(display, window, $0, $0, nil, 0, nil, nil, nil) }
        let utf8 = Array(title.utf8)
        XChangeProperty(display, window, atoms.netWMName, atoms.utf8String, 8, PropModeReplace,
                        utf8, Int32(utf8.count))
        XFlush(display)
    }

    private func setProperties(title: String) {
        setTitle(title)
        var pid = CLong(getpid())   // format-32 properties are passed as C longs
        withUnsafeBytes(of: &pid) {
            _ = XChangeProperty(display, window, atoms.netWMPid, XA_CARDINAL, 32, PropModeReplace,
                                $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        var protocols = [atoms.wmDeleteWindow]
        XSetWMProtocols(display, window, &protocols, 1)
        let hint = XAllocClassHint()!
        "photozoom".withCString { instance in
            "PhotoZoomAnimator".withCString { className in
                hint.pointee.res_name = UnsafeMutablePointer(mutating: instance)
                hint.pointee.res_class = UnsafeMutablePointer(mutating: className)
                XSetClassHint(display, window, hint)
            }
        }
        XFree(hint)
        var sizeHints = XSizeHints()
        sizeHints.flags = PMinSize
        sizeHints.min_width = 200
        sizeHints.min_height = 200
        XSetWMNormalHints(display, window, &sizeHints)
    }
}
