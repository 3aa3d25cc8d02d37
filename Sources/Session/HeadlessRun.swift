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
    let settings: RunSettings

    public init(settings: RunSettings) { self.settings = settings }

    /// The frames' rate when `--fps` does not say.
    public static let defaultFPS = 60.0

    public func run() throws {
        let session = try HeadlessSession(settings)
        defer { settings.library.thumbnailColours?.flush() }
        try session.play()
        let s = settings
        if s.script == nil && s.screenshot == nil && s.record == nil {
            s.logger.info("headless run settled; nothing to write (add --screenshot FILE, --record FILE or --script FILE)")
        }
    }
}

/// One headless run's state: the app on its manual clock, the renderer, and the recordings taking its frames.
final class HeadlessSession: RunRequests {
    let settings: RunSettings
    /// Frames a second, of the clock and the recordings.
    let fps: Double
    let clock: ManualClock
    let app: PhotoViewerApp
    let renderer = SceneRenderer()
    /// `--record`'s.
    private var recorder: RunRecorder?
    /// The one `key r` started.
    private var keyRecorder: RunRecorder?
    private var logger: Logger { settings.logger }
    private var scale: Double { app.pixelScale }

    init(_ settings: RunSettings) throws {
        self.settings = settings
        fps = settings.fps ?? HeadlessRun.defaultFPS
        clock = ManualClock(fps: fps)
        app = PhotoViewerApp(photos: settings.library.photos, size: settings.size, emptyMessage: settings.library.emptyMessage,
                             queue: DecodeQueue(thumbnails: settings.thumbnails, learnt: settings.library.thumbnailColours), clock: clock, pixelScale: settings.scale ?? 1,
                             motion: settings.motion, favorites: settings.library.favorites, logger: settings.logger)
        app.reducesMotion = settings.reduceMotion
        app.trash = settings.trash
        app.writesPhotos = settings.writesPhotos
        if let trace = settings.trace { app.frameObserver = { trace.write(line: $0.traceRecord.jsonLine) } }
        if let opening = settings.library.opening { app.openWhenLoaded(opening) }
        recorder = try settings.record.map { try startRecording($0.path, limit: $0.size) }
    }

    /// Settles, plays the script, settles again (unless it quit), then finishes the recordings and the screenshot.
    func play() throws {
        app.settle(stepping: clock)
        try recordFrame()
        var quit = false
        let timeline = settings.script ?? ScriptTimeline([], frameInterval: 1 / fps)
        try ScriptPlayer(app: app, clock: clock, eachFrame: recordFrame).play(timeline, output: { action in
            switch action {
            case .screenshot(let path): try AppOutputs.screenshot(of: app, renderer: renderer, to: path)
            case .dump(let path): try AppOutputs.dump(of: app, to: path)
            case .input, .resize, .settle: break
            }
        }, request: { request in
            quit = try perform(request) == .end
            return !quit
        })
        if !quit { try app.settle(stepping: clock, eachFrame: recordFrame) }
        for recorder in [recorder, keyRecorder].compactMap({ $0 }) { try finish(recorder) }
        if let screenshot = settings.screenshot { try AppOutputs.screenshot(of: app, renderer: renderer, to: screenshot) }
    }

    func perform(_ request: PhotoViewerApp.Request) throws -> Turn {
        switch request {
        case .quit:
            return .end
        case .toggleFullScreen:
            break   // no window to fill
        case .screenshot:
            let path = ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath)
            try AppOutputs.screenshot(of: app, renderer: renderer, to: path)
            logger.info("saved screenshot \(path)")
        case .toggleRecording:
            if let started = keyRecorder {
                keyRecorder = nil
                try finish(started)
            } else {
                let started = try startRecording(ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath, extension: "webp"),
                                                 limit: nil)
                try drawFrame(into: started)
                keyRecorder = started
            }
        case .copy:
            logger.info("nothing to copy to: a headless run has no clipboard")
        }
        return .goOn
    }

    private func startRecording(_ path: String, limit: WindowSize?) throws -> RunRecorder {
        try RunRecorder(path: path, viewWidth: Int((app.size.width * scale).rounded()), viewHeight: Int((app.size.height * scale).rounded()),
                        limit: limit, fps: fps)
    }

    /// Draws the frame at the recording's size, as the window would show it.
    private func drawFrame(into recorder: RunRecorder) throws {
        let frame = PixelImage(width: recorder.width, height: recorder.height)
        try renderer.draw(app.root, into: frame, scale: Double(recorder.width) / app.size.width, clearingTo: 0xFF00_0000)
        try recorder.add(frame, at: clock.now)
    }

    private func recordFrame() throws {
        for recorder in [recorder, keyRecorder].compactMap({ $0 }) { try drawFrame(into: recorder) }
    }

    private func finish(_ recorder: RunRecorder) throws {
        try recorder.finish(at: clock.now + clock.frameInterval)
        logger.info("saved recording \(recorder.path)")
    }
}
