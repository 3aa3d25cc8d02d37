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
    /// How often a `settle` step looks again, s; it looks first this long after it is due, so that
    /// input sent just before it has come back from the server.
    static let settlePoll = 0.05

    let timeline: ScriptTimeline
    private var start: Double?
    private var next = 0
    /// When the `settle` step being played began.
    private var settleBegan: Double?

    init(timeline: ScriptTimeline) { self.timeline = timeline }

    /// Whether every step was sent and the script's time is over.
    private(set) var isFinished = false

    /// Performs the steps due at `now`; returns the seconds until the next one (nil: none left,
    /// or not started).
    mutating func play(due now: Double, app: PhotoViewerApp, window: any PlatformWindow, renderer: SceneRenderer,
                       colour: ColourTarget) throws -> Double? {
        if start == nil, app.isSettled { start = now }
        guard var start, !isFinished else { return nil }
        defer { self.start = start }
        while next < timeline.steps.count, timeline.steps[next].time <= now - start {
            switch timeline.steps[next].action {
            case .settle(let maxSeconds):
                let began = settleBegan ?? now
                let settled = now - began >= Self.settlePoll && app.isSettled && renderer.isIdle
                guard settled || now - began >= maxSeconds else {
                    settleBegan = began
                    return Self.settlePoll
                }
                settleBegan = nil
                // The steps after it count from here.
                start = now - timeline.steps[next].time
            case .input(let event): window.inject(event)
            case .resize(let w, let h):
                window.requestResize(to: Size(width: Double(w) * app.pixelScale, height: Double(h) * app.pixelScale))
            case .screenshot(let path): try AppOutputs.screenshot(of: app, renderer: renderer, colour: colour, to: path)
            case .dump(let path): try AppOutputs.dump(of: app, to: path)
            }
            next += 1
        }
        let until = (next < timeline.steps.count ? timeline.steps[next].time : timeline.duration) - (now - start)
        if next == timeline.steps.count, until <= 0 { isFinished = true }
        return isFinished ? nil : max(0, until)
    }
}
