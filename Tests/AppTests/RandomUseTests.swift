import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
@testable import App

/// A user who taps, drags, pinches, scrolls, presses keys and resizes at random, fast, mid-flight
/// and all: on every frame the open photo is on screen exactly once, the zoom stays near its
/// limits, and in the end everything comes to rest.
@Suite struct RandomUseTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func anyMixOfInputKeepsTheRules(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 640, height: 480), clock: clock)
        var size = app.size
        var now: Seconds { clock.now }
        func point() -> Point { Point(x: .random(in: 0..<size.width, using: &random), y: .random(in: 0..<size.height, using: &random)) }
        func frames(_ n: Int) {
            for _ in 0..<n {
                clock.advanceFrame()
                app.tick()
                app.waitForLoads()
                check()
            }
        }
        func check() {
            let copy = app.root.descendant(named: "transitionImage")
            if let name = copy?.contentsName ?? app.viewer?.photoName {
                #expect(app.timesShown(name) == 1, "seed \(seed), t \(clock.now): \(name) shown \(app.timesShown(name)) times")
            }
            if let viewer = app.viewer, let levels = viewer.zoomLevels {
                #expect(viewer.zoomScale > 0.3 && viewer.zoomScale < levels.maximum * 2, "zoom \(viewer.zoomScale)")
                #expect((0..<app.photos.count).contains(viewer.index))
            }
        }
        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:   // a tap or a double tap
                let p = point()
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    _ = app.handle(.pointerDown(at: p, button: 1, time: now))
                    frames(1)
                    _ = app.handle(.pointerUp(at: p, button: 1, time: now))
                    frames(Int.random(in: 1...4, using: &random))
                }
            case 2, 3, 4:   // a drag, quick or slow, sometimes still held when the next thing happens
                var p = point()
                let step = Point(x: .random(in: -40...40, using: &random), y: .random(in: -40...40, using: &random))
                _ = app.handle(.pointerDown(at: p, button: 1, time: now))
                for _ in 0..<Int.random(in: 1...12, using: &random) {
                    frames(1)
                    p = p + step
                    _ = app.handle(.pointerMove(to: p, time: now))
                }
                if Int.random(in: 0..<4, using: &random) > 0 { _ = app.handle(.pointerUp(at: p, button: 1, time: now)) }
            case 5:   // a pinch
                let c = point(), target = Double.random(in: 0.3...3, using: &random)
                _ = app.handle(.touch(.begin, id: 0, at: c - Point(x: 80, y: 0), time: now))
                _ = app.handle(.touch(.begin, id: 1, at: c + Point(x: 80, y: 0), time: now))
                let n = Int.random(in: 1...10, using: &random)
                for i in 1...n {
                    frames(1)
                    let s = 1 + (target - 1) * Double(i) / Double(n)
                    _ = app.handle(.touch(.update, id: 0, at: c - Point(x: 80 * s, y: 0), time: now))
                    _ = app.handle(.touch(.update, id: 1, at: c + Point(x: 80 * s, y: 0), time: now))
                }
                _ = app.handle(.touch(.end, id: 0, at: c, time: now))
                _ = app.handle(.touch(.end, id: 1, at: c, time: now))
            case 6:   // the wheel, plain or with Ctrl, whole notches or a touchpad's fractions
                let notches = Int.random(in: 0..<2, using: &random) == 0
                let dy = notches ? Double(Int.random(in: -2...2, using: &random)) : Double.random(in: -1...1, using: &random)
                _ = app.handle(.scroll(dx: 0, dy: dy, unit: notches ? .notches : .smooth, at: point(),
                                       modifiers: Bool.random(using: &random) ? .control : []))
            case 7:   // a key
                let keys = ["Escape", "Left", "Right", "Return", "plus", "minus", "0", "1", "Down", "space"]
                _ = app.handle(.key(name: keys[Int.random(in: 0..<keys.count, using: &random)], modifiers: []))
            case 8:   // a resize
                if Int.random(in: 0..<3, using: &random) == 0 {
                    size = Size(width: .random(in: 300...900, using: &random).rounded(), height: .random(in: 300...700, using: &random).rounded())
                    app.resize(to: size)
                }
            default:
                frames(Int.random(in: 1...30, using: &random))
            }
            frames(Int.random(in: 0...3, using: &random))
        }
        // Let go of anything still held, and let everything come to rest.
        _ = app.handle(.pointerUp(at: point(), button: 1, time: now))
        var rest = 0
        while app.isAnimating && rest < 600 { frames(1); rest += 1 }
        #expect(!app.isAnimating, "seed \(seed): still moving after 10 s")
        if let viewer = app.viewer {
            #expect(viewer.zoomScale >= 1 - 1e-9 && viewer.zoomScale <= (viewer.zoomLevels?.maximum ?? 4) + 1e-9)
        }
    }
}
