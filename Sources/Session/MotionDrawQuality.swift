/// Whether a motion's moving pictures are drawn for speed (the cheapest filter, whole device pixels, as
/// a pinch's are) rather than well. Once a frame in motion took longer than `budget` of a refresh to
/// draw, the rest of that motion is: at 4K on two cores a zoom-in or a pull drawn well takes 17–23 ms,
/// which misses a 60 Hz refresh. The frame at rest is always drawn well, and a motion never goes back to
/// drawing well halfway (its sharpness would flicker).
struct MotionDrawQuality {
    /// The share of a refresh a frame in motion may take to draw before its motion is drawn for speed.
    static let budget = 0.6

    private(set) var forSpeed = false

    /// A frame begins: a scene at rest (`inMotion` false) is drawn well again.
    mutating func frameBegins(inMotion: Bool) {
        if !inMotion { forSpeed = false }
    }

    /// A frame was drawn in `seconds`, the refreshes `interval` s apart.
    mutating func frameDrawn(inMotion: Bool, seconds: Double, interval: Double) {
        if inMotion, seconds > Self.budget * interval { forSpeed = true }
    }

    /// Whether the frame on screen, drawn for speed, must be drawn again now that nothing asks for speed.
    func redrawsWell(drawnForSpeed: Bool, pinching: Bool, inMotion: Bool) -> Bool {
        drawnForSpeed && !pinching && !(forSpeed && inMotion)
    }
}
