import App
import Foundation
import Geometry
import Imaging
import Outputs
import Rendering
import Scripting
import WindowSystem

/// Sends a script's steps into the window when they are due, counting from the moment the first
/// screen settled.
struct WindowScriptPlayer {
    let timeline: ScriptTimeline
    private var start: Double?
    private var next = 0

    init(timeline: ScriptTimeline) { self.timeline = timeline }

    /// Whether every step was sent and the script's time is over.
    private(set) var isFinished = false

    /// Performs the steps due at `now`; returns the seconds until the next one (nil: none left,
    /// or not started).
    mutating func play(due now: Double, app: PhotoViewerApp, window: any PlatformWindow, renderer: SceneRenderer,
                       colour: ColourTarget) throws -> Double? {
        if start == nil, app.isSettled { start = now }
        guard let start, !isFinished else { return nil }
        while next < timeline.steps.count, timeline.steps[next].time <= now - start {
            switch timeline.steps[next].action {
            case .input(let event): window.inject(event.scaled(by: app.pixelScale))
            case .resize(let w, let h):
                window.requestResize(to: Size(width: Double(w) * app.pixelScale, height: Double(h) * app.pixelScale))
            case .screenshot(let path): try ScreenshotFile.write(app, renderer, colour: colour, to: path)
            case .dump(let path): try ScreenshotFile.writeDump(app, to: path)
            }
            next += 1
        }
        let until = (next < timeline.steps.count ? timeline.steps[next].time : timeline.duration) - (now - start)
        if next == timeline.steps.count, until <= 0 { isFinished = true }
        return isFinished ? nil : max(0, until)
    }
}
