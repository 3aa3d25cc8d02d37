import Animation
import App
import Foundation
import Geometry
import Library
import Logging
import Rendering
import Scripting
import Transitions

/// Renders the viewer with no X connection, on a manual clock: plays the script (if any) frame by
/// frame, waits until the screen has settled, then writes the frame the window would show.
struct HeadlessRun {
    let size: Size
    /// Device pixels a point.
    let scale: Double
    let fps: Double
    /// How released pulls move.
    let motion: MotionStyle
    let trace: TraceFile?
    let library: PhotoSelection
    /// The freedesktop thumbnail cache, unless `--no-thumbnail-cache`.
    let thumbnails: ThumbnailCache?
    let logger: Logger

    func run(script: ScriptTimeline?, screenshot: String?) throws {
        let clock = ManualClock(fps: fps)
        let app = PhotoViewerApp(photos: library.photos, size: size, emptyMessage: library.emptyMessage, queue: DecodeQueue(thumbnails: thumbnails),
                                 clock: clock, pixelScale: scale, motion: motion, logger: logger)
        trace?.follow(app)
        if let opening = library.opening { app.openWhenLoaded(opening) }
        app.settle(stepping: clock)
        let renderer = SceneRenderer()
        var quit = false
        try ScriptPlayer(app: app, clock: clock).play(script ?? ScriptTimeline([], frameInterval: 1 / fps), output: { action in
            switch action {
            case .screenshot(let path): try ScreenshotFile.write(app, renderer, to: path)
            case .dump(let path): try ScreenshotFile.writeDump(app, to: path)
            default: break
            }
        }, request: { request in
            switch request {
            case .quit:
                quit = true
                return false
            case .toggleFullScreen:
                return true   // no window to fill
            case .screenshot:
                let path = ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath)
                try ScreenshotFile.write(app, renderer, to: path)
                logger.info("saved screenshot \(path)")
                return true
            }
        })
        if !quit { app.settle(stepping: clock) }
        if let screenshot { try ScreenshotFile.write(app, renderer, to: screenshot) }
        if script == nil && screenshot == nil {
            logger.info("headless run settled; nothing to write (add --screenshot FILE or --script FILE)")
        }
    }
}
