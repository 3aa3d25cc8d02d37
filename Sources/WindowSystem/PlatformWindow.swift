import Cairo
import Geometry
import Input

/// A top-level window of a window system (X11, Wayland) as the window loop sees it: frames drawn with
/// Cairo go in, platform-free events come out. Sizes are in device pixels; input is in points, made so where
/// the platform decodes it (X11 divides the server's pixels by the window's scale; a Wayland surface's units are points).
public protocol PlatformWindow: AnyObject {
    /// The window's size now, device pixels.
    var size: Size { get }
    /// Whether the display says when each frame is shown (`WindowEvent.presented`), so the loop can
    /// begin frames just in time for a refresh; otherwise it paces them on a timer.
    var pacesByRefresh: Bool { get }
    /// The refresh rate of the output the window is on, Hz; nil when it says none.
    var refreshRate: Double? { get }
    /// How long before a refresh the display is known to need a frame to show it then, in refreshes;
    /// 0 when not known ahead (the window's clock learns it from the frames that come late).
    var refreshLead: Double { get }
    /// Whether the times of `WindowEvent.presented` are of refreshes on a grid (X Present's, a compositor's
    /// presentation feedback), not only of when a compositor repainted on a timer of its own (frame
    /// callbacks, where no feedback comes: a headless sway).
    var presentsOnAGrid: Bool { get }
    /// How many frames may be sent before the first is shown (the buffers the window draws into).
    var framesInFlight: Int { get }
    /// Whether a frame sent for a later refresh waits for it (X Present's target counter), so that the
    /// frames of a motion can be sent ahead; where a new frame replaces the one not shown yet (a Wayland
    /// commit), only the frame the next refresh shows may be in flight unshown.
    var holdsFramesForTheirRefresh: Bool { get }
    /// Whether the refresh counter of `WindowEvent.presented` goes on while no frame waits (a display's
    /// vblank, Xvfb's timer), so that it can be predicted across a pause; not a compositor's answers to commits.
    var countsRefreshesWhileIdle: Bool { get }
    /// Whether `inject` can play a script's input through the window system.
    var injectsInput: Bool { get }

    /// Draws a frame with `draw` (a `cairo_t` on a surface of `size`, holding the previous frame) and
    /// sends it: only `area` changed when given; for the refresh `msc` where the window paces by refresh.
    func present(area: PixelRect?, atRefresh msc: UInt64?, _ draw: (OpaquePointer) -> Void) throws(CairoError)
    /// What happened, waiting up to `timeout` seconds (nil: until something does) for it, or until
    /// `wakeDescriptor` is readable.
    func events(waitingUpTo timeout: Double?, orUntilReadable wakeDescriptor: Int32?) -> [WindowEvent]
    /// An input event's time (`InputEvent` times, seconds on the window system's clock) on
    /// CLOCK_MONOTONIC; nil when the clocks can't be matched.
    func monotonicTime(ofInputTime seconds: Double) -> Double?
    /// Plays `event` (points) as real input (a script in the window); it comes back through `events`.
    func inject(_ event: InputEvent)
    func setTitle(_ title: String)
    /// Full screen on, or off again; a resize follows when the desktop does it.
    func toggleFullScreen()
    /// Asks for a new size (a script's `resize`); a resize follows when the desktop grants it.
    func requestResize(to size: Size)
    /// Takes the clipboard with these forms of what is copied; false when it could not be taken.
    func offerClipboard(_ items: [ClipboardItem]) -> Bool
    /// A photo lifted in the window (the button or finger still down) is dragged out with these forms of
    /// it: the window carries it past its edge to the program under the pointer; false when it cannot.
    func offerDrag(_ items: [ClipboardItem]) -> Bool
}

/// A window system the viewer can open its window on, and what the desktop there asks of it.
public protocol WindowPlatform: AnyObject {
    /// What `--backend` calls it, and the log says.
    var name: String { get }
    /// Device pixels a point the desktop asks for; nil: it says none (1).
    func desktopScale() -> Double?
    /// Whether the desktop turned its animations off.
    func animationsOff() -> Bool
    /// The ICC profile the desktop set for the display, if any.
    func displayColourProfile() -> [UInt8]?
    /// Opens a window of `size` (device pixels, `scale` a point) titled `title`. `followingDesktopScale`:
    /// where the window system says another scale suits the window (it moved to another output), the
    /// window takes it and reports `WindowEvent.scaleChanged`; otherwise (`--scale`) it keeps `scale`.
    func openWindow(size: Size, scale: Double, followingDesktopScale: Bool, title: String) throws -> any PlatformWindow
}
