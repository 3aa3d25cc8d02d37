import Animation
import App
import CCairo
import Foundation
import Geometry
import Outputs
import Pixels
import WindowSystem

extension WindowSession {
    /// One frame: the animations move to the time it will be on screen (or, `animationOnly`, just the animated
    /// photo's next frame, and only its area is drawn), the scene is drawn and sent.
    func frame(animationOnly: Bool) {
        let started = MonotonicClock.seconds()
        let msc = pacer.beginFrame(at: started)
        var area: Rect?
        if animationOnly {
            guard let changed = app.advanceAnimationOnly() else {
                pacer.endFrame(started: started, at: MonotonicClock.seconds(), sent: false)
                return
            }
            area = changed
        } else {
            app.tick()
            quality.frameBegins(inMotion: inMotion)
            renderer.drawsForSpeed = app.isPinchZooming || quality.forSpeed
        }
        var record = settings.trace.map { _ in app.traceRecord }
        record?.damage = area?.traceArray
        if let input = app.lastInputTime, input != inputShown {
            inputShown = input
            record?.inputAt = window.monotonicTime(ofInputTime: input)
        }
        let drawn = draw(area: area, msc: msc, started: started)
        let sent = MonotonicClock.seconds()
        if !animationOnly {
            quality.frameDrawn(inMotion: inMotion, seconds: drawn - started, interval: clock.frameInterval)
        }
        pacer.endFrame(started: started, at: sent, sent: true)
        let timing = FrameTiming(draw: (drawn - started) * 1000, present: (sent - drawn) * 1000, idle: idle * 1000)
        app.lastFrameTiming = timing
        idle = 0
        let sentFrame = FrameInFlight(record: record?.with(timing), milestones: launch.isComplete || animationOnly ? [] : app.milestones)
        if window.pacesByRefresh { inFlight.append(sentFrame) } else { onScreen(sentFrame, shown: nil) }
        guard !animationOnly else { return }
        app.didDisplay()
        launchSnapshot?.keepWhenComplete(app)
        // Thumbnails drawn at a new size get their exact copies on the next frame at rest.
        if renderer.wantsAnotherDraw { app.setNeedsDisplay() }
    }

    /// Draws the scene (only `area`, points, when given) and sends it for refresh `msc`; when the drawing ended.
    private func draw(area: Rect?, msc: UInt64?, started: Double) -> Double {
        let frameTime = clock.now
        var drawn = started
        do {
            try window.present(area: area.map { PixelRect(enclosing: $0, scale: scale) }, atRefresh: msc) { cr in
                renderer.draw(app.root, on: cr, scale: scale)
                drawn = MonotonicClock.seconds()
                if recordings.isRecording {
                    recordings.framePresented(cairo_get_target(cr), at: frameTime, logger: logger)
                    if area == nil { RecordingDot.draw(on: cr, windowWidth: window.size.width, scale: scale) }
                }
            }
        } catch {
            cairoProblems.say(error, logger: logger)
        }
        if let failure = renderer.takeFailure() { cairoProblems.say(failure, logger: logger) }
        return drawn
    }
}
