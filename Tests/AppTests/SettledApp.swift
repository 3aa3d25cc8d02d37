import Animation
import Geometry
import TestSupport
@testable import App

/// The viewer on the bundled photos (or `folders`), on a manual clock, with its first screen settled.
func settledApp(size: Size, folders: [String] = [TestImages.bundledFolder], clock: ManualClock) -> PhotoViewerApp {
    let app = PhotoViewerApp(photos: PhotoLibrary.collect(folders).photos, size: size, emptyMessage: "",
                             loader: ThumbnailLoader(), clock: clock)
    app.settle(stepping: clock)
    return app
}

extension PhotoViewerApp {
    /// The window frame of photo `index`'s grid cell.
    func cellFrame(_ index: Int) -> Rect { grid.cell(at: index).convert(grid.cell(at: index).bounds, to: nil) }
}
