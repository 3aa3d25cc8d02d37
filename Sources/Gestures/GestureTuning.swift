/// The recognizers' thresholds, with their units.
public enum GestureTuning {
    /// Movement before a press stops being a tap and becomes a drag, px.
    public static let touchSlop = 10.0
    /// Longest press that still counts as a tap, s.
    public static let tapMaxDuration = 0.5
    /// A second tap must start within this time after the first ended, s…
    public static let doubleTapInterval = 0.3
    /// …and within this distance of it, px.
    public static let doubleTapDistance = 25.0
    /// A press held still this long lifts what is under it to be dragged out, s.
    public static let longPressDuration = 0.5
    /// Movement after which a pan that asks for it locks to its dominant axis, px.
    public static let axisLockDistance = 10.0
}
