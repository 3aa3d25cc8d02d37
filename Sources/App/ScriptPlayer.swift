import Animation
import Foundation
import Input
import Scripting

/// Plays a script's timeline against the app on a manual clock, frame by frame. Events are stamped
/// with the clock's time, as the server's timestamps would be, and every frame waits for the
/// decoders, so the same script and size always give the same frames.
public final class ScriptPlayer {
    private let app: PhotoViewerApp
    private let clock: ManualClock

    /// Called after every frame (a recording draws it).
    private let eachFrame: () throws -> Void

    public init(app: PhotoViewerApp, clock: ManualClock, eachFrame: @escaping () throws -> Void = {}) {
        self.app = app
        self.clock = clock
        self.eachFrame = eachFrame
    }

    /// `output` writes screenshots and dumps; `request` answers the app's requests (false: stop, as
    /// after `key q`).
    public func play(_ timeline: ScriptTimeline, output: (ScriptTimeline.Action) throws -> Void,
                     request: (PhotoViewerApp.Request) throws -> Bool) throws {
        var start = clock.now

        for step in timeline.steps {
            while clock.now - start < step.time - 1e-9 { try frame() }
            switch step.action {
            case .input(let event):
                if let r = app.handle(event.shifted(by: start)), try !request(r) { return }
            case .resize(let w, let h):
                app.resize(to: .init(width: Double(w), height: Double(h)))
            case .settle(let maxSeconds):
                let began = clock.now
                while !app.isSettled, clock.now - began < maxSeconds - 1e-9 { try frame() }
                // The steps after it count from here.
                start += clock.now - began
            case .screenshot, .dump:
                try output(step.action)
            }
        }
        while clock.now - start < timeline.duration - 1e-9 { try frame() }
    }

    /// One frame: time moves on, animations step, and decodes finish before it is drawn.
    private func frame() throws {
        clock.advanceFrame()
        app.tick()
        app.waitForLoads()
        try eachFrame()
    }
}
