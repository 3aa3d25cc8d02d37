import Animation

/// The seeds' transition constants, in one place.
public enum ZoomTiming {
    /// Zoom in: a spring of 0.5 s, damping ratio 0.8, no initial velocity.
    public static let zoomIn = Motion.spring(duration: 0.5, dampingRatio: 0.8)
    /// Zoom out without a gesture (Escape, BackSpace, back): 0.25 s ease-out into the cell.
    public static let zoomOut = Motion.curve(.easeOut, duration: 0.25)
    /// The seeds' finish of a pull: 0.25 s of UIKit's default curve, ease-in-out, from rest.
    public static let seedsFinish = Motion.curve(.easeInOut, duration: 0.25)
    /// Reduce motion: the zoom-in and the fly-back become a cross-fade in place of 0.15 s, ease-in-out
    /// (iOS's Reduce Motion; PhotoSwipe's `prefers-reduced-motion`).
    public static let crossFade = Motion.curve(.easeInOut, duration: 0.15)
}

/// How a released pull moves (`--motion`).
public enum MotionStyle: String, CaseIterable, Sendable {
    /// The finger's speed carries into the spring back and the finish, so position and speed are
    /// continuous at release; the finish never passes its cell.
    case fluid
    /// The seeds exactly: the spring back and the finish start from rest, the finish is 0.25 s
    /// ease-in-out, and the grid centres the current photo's cell on every settled page.
    case seeds
}
