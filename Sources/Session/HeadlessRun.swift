import Animation
import App
import Foundation
import Geometry
import Library
import Logging
import Outputs
import Pixels
import Rendering
import Scripting
import Transitions

/// Renders the viewer with no X connection, on a manual clock: plays the script (if any) frame by
/// frame, waits until the screen has settled, then writes the frame the window would show. A
/// recording gets every frame from the first settled one to the last, at the clock's rate.
public struct HeadlessRun {
    let size: Size
    /// Device pixels a point.
    let scale: Double
    let fps: Double
    /// How released pulls move.
    let motion: MotionStyle
    /// `--reduce-motion`.
    let reduceMotion: Bool
    let trace: TraceFile?
    let library: PhotoSelection
    /// Where Delete moves photos; nil: `--read-only`.
    let trash: Trash?
    /// Whether Ctrl+R writes a photo's file (not with `--read-only`).
    let writesPhotos: Bool
    /// The freedesktop thumbnail cache, unless `--no-thumbnail-cache`.
    let thumbnails: ThumbnailCache?
    let logger: Logger

    public init(size: Size, scale: Double, fps: Double, motion: MotionStyle, reduceMotion: Bool, trace: TraceFile?,
                library: PhotoSelection, trash: Trash?, writesPhotos: Bool, thumbnails: ThumbnailCache?, logger: Logger) {
        self.size = size
        self.scale = scale
        self.fps = fps
        self.motion = motion
        self.reduceMotion = reduceMotion
        self.trace = trace
        self.library = library
        self.trash = trash
        self.writesPhotos = writesPhotos
        self.thumbnails = thumbnails
        self.logger = logger
    }

    public func run(script: ScriptTimeline?, screenshot: String?, record: RecordingRequest?) throws {
        let clock = ManualClock(fps: fps)
        let app = PhotoViewerApp(photos: library.photos, size: size, emptyMessage: library.emptyMessage, queue: DecodeQueue(thumbnails: thumbnails),
                                 clock: clock, pixelScale: scale, motion: motion, favorites: library.favorites, logger: logger)
        app.reducesMotion = reduceMotion
        app.trash = trash
        app.writesPhotos = writesPhotos
        trace?.follow(app)
        if let opening = library.opening { app.openWhenLoaded(opening) }
        let renderer = SceneRenderer()
        func startRecording(_ path: String, limit: WindowSize?) throws -> RunRecorder {
            try RunRecorder(path: path, viewWidth: Int((app.size.width * scale).rounded()), viewHeight: Int((app.size.height * scale).rounded()),
                            limit: limit, fps: fps)
        }
        /// `--record`'s, and the one `key r` started.
        let recorder = try record.map { try startRecording($0.path, limit: $0.size) }
        var keyRecorder: RunRecorder?
        /// Draws the frame at the recording's size, as the window would show it.
        func drawFrame(into recorder: RunRecorder) throws {
            let frame = PixelImage(width: recorder.width, height: recorder.height)
            try renderer.draw(app.root, into: frame, scale: Double(recorder.width) / app.size.width, clearingTo: 0xFF00_0000)
            try recorder.add(frame, at: clock.now)
        }
        func recordFrame() throws {
            for recorder in [recorder, keyRecorder].compactMap({ $0 }) { try drawFrame(into: recorder) }
        }
        func finish(_ recorder: RunRecorder) throws {
            try recorder.finish(at: clock.now + clock.frameInterval)
            logger.info("saved recording \(recorder.path)")
        }

        app.settle(stepping: clock)
        try recordFrame()
        var quit = false
        try ScriptPlayer(app: app, clock: clock, eachFrame: recordFrame).play(script ?? ScriptTimeline([], frameInterval: 1 / fps), output: { action in
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
            case .toggleRecording:
                if let started = keyRecorder {
                    keyRecorder = nil
                    try finish(started)
                } else {
                    let started = try startRecording(ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath,
                                                                              extension: "webp"), limit: nil)
                    try drawFrame(into: started)
                    keyRecorder = started
                }
                return true
            case .copy:
                logger.info("nothing to copy to: a headless run has no clipboard")
                return true
            }
        })
        if !quit { try app.settle(stepping: clock, eachFrame: recordFrame) }
        for recorder in [recorder, keyRecorder].compactMap({ $0 }) { try finish(recorder) }
        if let screenshot { try ScreenshotFile.write(app, renderer, to: screenshot) }
        if script == nil && screenshot == nil && recorder == nil {
            logger.info("headless run settled; nothing to write (add --screenshot FILE, --record FILE or --script FILE)")
        }
    }
}

/// `--record PATH` and `--record-size WxH`.
public struct RecordingRequest {
    let path: String
    let size: WindowSize?

    public init(path: String, size: WindowSize?) {
        self.path = path
        self.size = size
    }
}
