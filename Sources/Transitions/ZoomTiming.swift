import Animation

/// The seeds' transition constants, in one place.
public enum ZoomTiming {
    /// Zoom in: a spring of 0.5 s, damping ratio 0.8, no initial velocity.
    public static let zoomIn = Motion.spring(duration: 0.5, dampingRatio: 0.8)
    /// Zoom out without a gesture (Escape, BackSpace, back): 0.25 s ease-out into the cell.
    public static let zoomOut = Motion.curve(.easeOut, duration: 0.25)
}
