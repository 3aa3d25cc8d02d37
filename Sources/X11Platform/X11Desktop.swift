import Geometry
import Logging
import WindowSystem

/// The X11 window system (`$DISPLAY`): windows drawn through MIT-SHM and paced by X Present where the
/// server offers them, and the desktop's wishes as X resources and XSETTINGS say them.
public final class X11Desktop: WindowPlatform {
    public let name = "x11"
    /// The display's name (`:1`); nil: `$DISPLAY`.
    private let displayName: String?
    private let allowSharedMemory: Bool
    private let passDescriptors: Bool
    private let allowPresent: Bool
    private let logger: Logger

    /// `allowSharedMemory: false` forces the `cairo_xlib_surface` path; `passDescriptors: false`, SysV
    /// segments as an MIT-SHM 1.1 server needs; `allowPresent: false`, frames shown at once.
    public init(displayName: String? = nil, allowSharedMemory: Bool = true, passDescriptors: Bool = true, allowPresent: Bool = true,
                logger: Logger) {
        self.displayName = displayName
        self.allowSharedMemory = allowSharedMemory
        self.passDescriptors = passDescriptors
        self.allowPresent = allowPresent
        self.logger = logger
    }

    public func desktopScale() -> Double? { DesktopScale.detect(displayName: displayName) }

    /// XSETTINGS `Gtk/EnableAnimations` = 0.
    public func animationsOff() -> Bool { DesktopSettings.read(displayName: displayName)?.enablesAnimations == false }

    /// The root window's `_ICC_PROFILE`.
    public func displayColourProfile() -> [UInt8]? { DisplayColourProfile.read(displayName: displayName) }

    /// The X window is in device pixels already; `scale` is the loop's business.
    /// The scale stays as opened: X tells no window its own.
    public func openWindow(size: Size, scale: Double, followingDesktopScale: Bool, title: String) throws -> any PlatformWindow {
        try X11Window(displayName: displayName, size: size, scale: scale, title: title, allowSharedMemory: allowSharedMemory,
                      passDescriptors: passDescriptors, allowPresent: allowPresent, logger: logger)
    }
}
