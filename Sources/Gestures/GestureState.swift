/// Where a recognizer is in its life, as UIGestureRecognizer.State.
public enum GestureState: Equatable, Sendable {
    case possible
    case began
    case changed
    case ended
    case cancelled
    case failed
    /// A discrete gesture (a tap) happened.
    case recognized
}
