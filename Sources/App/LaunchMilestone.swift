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

extension LaunchMilestone {
    /// The moments `app`'s screen shows now.
    static func reached(by app: PhotoViewerApp) -> Set<LaunchMilestone> {
        var reached: Set<LaunchMilestone> = []
        let viewer = app.viewer, thumbnails = app.thumbnails
        if thumbnails.hasAny || viewer?.image != nil { reached.insert(.firstPhoto) }
        if viewer == nil, thumbnails.isViewFilled { reached.insert(.gridFilled) }
        if viewer == nil, thumbnails.isViewComplete { reached.insert(.gridComplete) }
        if let viewer, let image = viewer.image, Double(image.width) >= 0.9 * viewer.fitFrame.width * app.pixelScale {
            reached.insert(.photoSharp)
        }
        return reached
    }
}
