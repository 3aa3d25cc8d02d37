import CX11
import Glibc

/// The refresh rate of the output a window is on, from RandR 1.2: the CRTC under the window's centre
/// (else the first lit one), its mode's pixel clock over its total size. The screen's and the CRTCs'
/// changes are selected on the root window, so that a new mode, or the window moving to another
/// output, can be noticed (`isChange`, then `read` again). Through libXrandr, not xcb: Xlib drops the
/// events of an extension it has no converter for, and XRRQueryExtension installs RandR's.
final class OutputRefreshRate {
    private let display: OpaquePointer
    private let root: Window
    private let window: Window
    /// RandR's first event number.
    private let eventBase: Int32

    /// Nil when the server has no RandR 1.2.
    init?(display: OpaquePointer, window: Window) {
        var events: Int32 = 0, errors: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XRRQueryExtension(display, &events, &errors) != 0, XRRQueryVersion(display, &major, &minor) != 0,
              major > 1 || minor >= 2 else { return nil }
        self.display = display
        eventBase = events
        root = XDefaultRootWindow(display)
        self.window = window
        XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask))
    }

    /// Whether an event of X type `type` says the outputs changed.
    func isChange(_ event: inout XEvent) -> Bool {
        guard event.type == eventBase + RRScreenChangeNotify || event.type == eventBase + RRNotify else { return false }
        XRRUpdateConfiguration(&event)
        return true
    }

    /// The rate of the output under the window now, Hz; nil when its mode says none (Xvfb's pixel
    /// clock is 0) or nothing is lit.
    func read() -> Double? {
        guard let resources = XRRGetScreenResourcesCurrent(display, root) else { return nil }
        defer { XRRFreeScreenResources(resources) }
        let r = resources.pointee
        let centre = windowCentre()
        var lit: [(x: Int, y: Int, width: Int, height: Int, mode: RRMode)] = []
        for i in 0..<Int(r.ncrtc) {
            guard let info = XRRGetCrtcInfo(display, resources, r.crtcs[i]) else { continue }
            let c = info.pointee
            XRRFreeCrtcInfo(info)
            if c.mode != 0 { lit.append((Int(c.x), Int(c.y), Int(c.width), Int(c.height), c.mode)) }
        }
        let under = lit.first { c in centre.map { $0.x >= c.x && $0.x < c.x + c.width && $0.y >= c.y && $0.y < c.y + c.height } ?? false }
        guard let shown = (under ?? lit.first)?.mode,
              let mode = (0..<Int(r.nmode)).map({ r.modes[$0] }).first(where: { $0.id == shown }) else { return nil }
        return Self.rate(of: mode)
    }

    /// A mode's refresh rate, Hz: pixels a second over pixels a frame (twice the lines when scanned
    /// twice, twice the frames when interlaced).
    static func rate(of mode: XRRModeInfo) -> Double? {
        var lines = Double(mode.vTotal)
        if mode.modeFlags & UInt(RR_DoubleScan) != 0 { lines *= 2 }
        if mode.modeFlags & UInt(RR_Interlace) != 0 { lines /= 2 }
        guard mode.dotClock > 0, mode.hTotal > 0, lines > 0 else { return nil }
        return Double(mode.dotClock) / (Double(mode.hTotal) * lines)
    }

    /// The window's centre in root coordinates.
    private func windowCentre() -> (x: Int, y: Int)? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0, y: Int32 = 0, child: Window = 0
        guard XTranslateCoordinates(display, window, root, attributes.width / 2, attributes.height / 2, &x, &y, &child) != 0 else { return nil }
        return (Int(x), Int(y))
    }
}
