import Animation
import Foundation
import Geometry
import Input
import Scripting

/// Plays an input script against the app on a manual clock, frame by frame at the clock's rate.
/// Events carry the clock's time in ms, as the server's timestamps would. Every frame waits for
/// the decoders, so the same script and size always give the same frames.
public final class ScriptPlayer {
    /// How long a scripted tap holds the pointer down, and the gap inside a double tap, ms.
    public static let tapHold = 50.0
    public static let doubleTapGap = 100.0
    /// A pinch's fingers start this far either side of its centre, px; the default length, ms.
    public static let pinchSpread = 100.0
    public static let pinchDuration = 300.0

    private let app: PhotoViewerApp
    private let clock: ManualClock
    private var pointer = Point.zero

    public init(app: PhotoViewerApp, clock: ManualClock) {
        self.app = app
        self.clock = clock
    }

    /// Runs the commands; `output` writes screenshots and dumps, `request` answers the app's
    /// requests (a `q` key ends the script early: it returns false).
    public func play(_ commands: [ScriptCommand], output: (ScriptCommand) throws -> Void,
                     request: (PhotoViewerApp.Request) throws -> Bool) throws {
        for command in commands {
            switch command {
            case .wait(let ms): frames(for: ms)
            case .tap(let x, let y):
                tap(at: Point(x: x, y: y))
            case .doubleTap(let x, let y):
                tap(at: Point(x: x, y: y))
                frames(for: ScriptPlayer.doubleTapGap)
                tap(at: Point(x: x, y: y))
            case .down(let x, let y):
                pointer = Point(x: x, y: y)
                send(.pointerDown(at: pointer, button: 1, time: now))
            case .move(let x, let y, let ms):
                let from = pointer, to = Point(x: x, y: y)
                let n = ms.map { max(1, frameCount($0)) } ?? 0
                for i in stride(from: 1, through: n, by: 1) {
                    frame()
                    pointer = from + (to - from) * (Double(i) / Double(n))
                    send(.pointerMove(to: pointer, time: now))
                }
                if n == 0 {
                    pointer = to
                    send(.pointerMove(to: pointer, time: now))
                }
            case .up:
                send(.pointerUp(at: pointer, button: 1, time: now))
            case .scroll(let dx, let dy):
                send(.scroll(dx: dx, dy: dy, at: pointer, modifiers: []))
            case .key(let name):
                if let r = app.handle(.key(name: name, modifiers: [])), try !request(r) { return }
            case .pinch(let x, let y, let scale, let ms):
                pinch(center: Point(x: x, y: y), scale: scale, ms: ms ?? ScriptPlayer.pinchDuration)
            case .resize(let w, let h):
                app.resize(to: Size(width: Double(w), height: Double(h)))
            case .screenshot, .dump:
                try output(command)
            }
        }
    }

    private var now: Milliseconds { Milliseconds((clock.now * 1000).rounded()) }

    private func send(_ event: InputEvent) { _ = app.handle(event) }

    private func frameCount(_ ms: Double) -> Int { Int((ms / 1000 / clock.frameInterval).rounded()) }

    private func frames(for ms: Double) {
        for _ in 0..<frameCount(ms) { frame() }
    }

    /// One frame: time moves on, animations step, and decodes finish before it is drawn.
    private func frame() {
        clock.advanceFrame()
        if app.isAnimating { app.tick() }
        app.waitForLoads()
    }

    private func tap(at p: Point) {
        pointer = p
        send(.pointerDown(at: p, button: 1, time: now))
        frames(for: ScriptPlayer.tapHold)
        send(.pointerUp(at: p, button: 1, time: now))
    }

    private func pinch(center c: Point, scale: Double, ms: Double) {
        let d = ScriptPlayer.pinchSpread
        send(.touch(.begin, id: 0, at: Point(x: c.x - d, y: c.y), time: now))
        send(.touch(.begin, id: 1, at: Point(x: c.x + d, y: c.y), time: now))
        let n = max(1, frameCount(ms))
        var spread = d
        for i in 1...n {
            frame()
            spread = d * (1 + (scale - 1) * Double(i) / Double(n))
            send(.touch(.update, id: 0, at: Point(x: c.x - spread, y: c.y), time: now))
            send(.touch(.update, id: 1, at: Point(x: c.x + spread, y: c.y), time: now))
        }
        send(.touch(.end, id: 0, at: Point(x: c.x - spread, y: c.y), time: now))
        send(.touch(.end, id: 1, at: Point(x: c.x + spread, y: c.y), time: now))
    }
}
