import Geometry
import Logging
import WindowSystem

/// The Wayland window system (`$WAYLAND_DISPLAY`), connected to once it is chosen: its outputs say the
/// scale and refresh rate, and its windows are `WaylandWindow`s.
public final class WaylandDesktop: WindowPlatform {
    public let name = "wayland"
    private let connection: WaylandDisplay

    /// Throws when no compositor answers, or it lacks what a window needs.
    public init(logger: Logger) throws {
        connection = try WaylandDisplay(logger: logger)
        logger.debug("Wayland compositor \(connection.socketName): \(connection.globals.keys.sorted().joined(separator: ", "))")
    }

    /// The outputs' scale, where one is above 1: fractional (1.25, 1.5, 1.75) where xdg-output tells it,
    /// else wl_output.scale. (Drawn at it, with viewporter mapping the buffers, the window is crisp; a
    /// whole scale above it would be shrunk by the compositor.)
    public func desktopScale() -> Double? {
        connection.outputScale > 1 ? connection.outputScale : nil
    }

    /// Not known on Wayland (the desktop's setting is in its own settings store).
    public func animationsOff() -> Bool { false }

    /// Wayland has no display profile a client can read yet (the colour-management protocol is not here).
    public func displayColourProfile() -> [UInt8]? { nil }

    public func openWindow(size: Size, scale: Double, followingDesktopScale: Bool, title: String) throws -> any PlatformWindow {
        try WaylandWindow(connection: connection, size: size, scale: scale, followingDesktopScale: followingDesktopScale, title: title)
    }
}
