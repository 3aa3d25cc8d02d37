import Animation
import App
import Foundation
import Geometry
import Logging
import Rendering

/// Renders the viewer with no X connection: waits until the screen has settled (every thumbnail
/// decoded), then writes the frame the window would show.
struct HeadlessRun {
    let size: Size
    let fps: Double
    let photos: [Photo]
    let emptyMessage: String
    let logger: Logger

    func run(screenshot: String?) throws {
        let clock = ManualClock(fps: fps)
        let app = PhotoViewerApp(photos: photos, size: size, emptyMessage: emptyMessage, loader: ThumbnailLoader(),
                                 clock: clock, logger: logger)
        app.settle(stepping: clock)
        guard let screenshot else {
            logger.info("headless run settled; nothing to write (add --screenshot FILE)")
            return
        }
        let frame = SceneRenderer().render(app.root, width: Int(size.width), height: Int(size.height))
        try ScreenshotFile.write(frame, to: screenshot)
        logger.debug("wrote \(screenshot)")
    }
}
