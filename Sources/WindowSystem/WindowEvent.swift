import Geometry
import Input

/// What the window reports to the loop that runs it.
public enum WindowEvent: Equatable, Sendable {
    case input(InputEvent)
    case resized(Size)
    /// Part of the window must be drawn again.
    case exposed
    /// The window manager's close button (WM_DELETE_WINDOW, xdg_toplevel.close), or the window was destroyed.
    case closeRequested
    /// Files dropped on the window (XDND, or a Wayland data device): the lines of the source's `text/uri-list`, as bytes.
    case dropped([[UInt8]])
    /// The frame last sent with a refresh to aim for went on screen at refresh `msc`, at `time`
    /// (CLOCK_MONOTONIC s).
    case presented(msc: UInt64, time: Double)
    /// The window is drawn at another scale now (device pixels a point; its `size` changed with it, its
    /// size in points did not).
    case scaleChanged(Double)
    /// The output under the window has another refresh rate (Hz; nil: it says none).
    case refreshRateChanged(Double?)
    /// The desktop's settings (XSETTINGS) may have changed: ask the platform again (`WindowPlatform.animationsOff`).
    case desktopSettingsChanged
}
