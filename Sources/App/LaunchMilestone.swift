/// Moments of a launch that a user waits for, logged once each with the time since the process
/// started (`make bench` reads them as `first_photo_ms`, `grid_filled_ms`, `grid_cold_ms`,
/// `grid_warm_ms`).
public enum LaunchMilestone: String, CaseIterable, Sendable {
    /// A photo is on screen: a thumbnail in the grid, or the photo opened from the command line.
    case firstPhoto = "first photo on screen"
    /// Every cell in view shows a picture, if only a camera's embedded thumbnail.
    case gridFilled = "grid filled"
    /// Every cell in view shows its thumbnail.
    case gridComplete = "grid complete"
    /// The open photo is shown from a decode of its size on screen.
    case photoSharp = "photo sharp on screen"
}
