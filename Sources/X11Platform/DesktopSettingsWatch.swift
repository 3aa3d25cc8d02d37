import CX11

/// Tells when the desktop's settings may have changed while the window is open: the XSETTINGS
/// manager rewrote its `_XSETTINGS_SETTINGS` property (a switch flipped in the desktop's settings),
/// quit, or a new manager took the selection. As the XSETTINGS specification asks of its clients,
/// it watches the manager's window (PropertyChangeMask, StructureNotifyMask) and the root window
/// for the MANAGER message a new manager sends (StructureNotifyMask). The settings themselves are
/// read with `DesktopSettings.read`.
final class DesktopSettingsWatch {
    private let display: OpaquePointer
    private let root: Window
    private let selection: Atom
    private let settings: Atom
    private let manager: Atom
    /// The manager's window; 0 while none runs.
    private var owner: Window = 0

    init(display: OpaquePointer) {
        self.display = display
        root = XDefaultRootWindow(display)
        selection = XInternAtom(display, "_XSETTINGS_S\(XDefaultScreen(display))", 0)
        settings = XInternAtom(display, "_XSETTINGS_SETTINGS", 0)
        manager = XInternAtom(display, "MANAGER", 0)
        XSelectInput(display, root, StructureNotifyMask)
        follow()
    }

    /// Watches the selection's owner now. The server is grabbed meanwhile so that the owner can't
    /// go between being asked for and being watched (the specification's advice).
    private func follow() {
        XGrabServer(display)
        owner = XGetSelectionOwner(display, selection)
        if owner != 0 { XSelectInput(display, owner, PropertyChangeMask | StructureNotifyMask) }
        XUngrabServer(display)
        XFlush(display)
    }

    /// Nil when `event` is not the watch's; otherwise whether the settings may have changed.
    func handle(_ event: inout XEvent) -> Bool? {
        switch event.type {
        case ClientMessage where event.xclient.window == root:
            guard event.xclient.message_type == manager, Atom(event.xclient.data.l.1) == selection else { return false }
            follow()
            return true
        case PropertyNotify where owner != 0 && event.xproperty.window == owner:
            return event.xproperty.atom == settings
        case DestroyNotify where owner != 0 && event.xdestroywindow.window == owner:
            follow()
            return true
        case ConfigureNotify, MapNotify, UnmapNotify, ReparentNotify, GravityNotify, CirculateNotify:
            // The root's and the manager's own structure events: not the window's.
            return event.xany.window == root || (owner != 0 && event.xany.window == owner) ? false : nil
        default:
            return nil
        }
    }
}
