import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
@testable import App
@testable import Transitions

/// Pull the open photo down (DESIGN points 4, 5 and 7), with pointer times on the app's clock.
@Suite struct DismissalTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp
    let index = 1
    let size = Size(width: 640, height: 480)

    init() {
        app = settledApp(size: size, clock: clock)
        let cell = app.grid.cell(at: index)
        let c = cell.convert(cell.bounds, to: nil).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: now))
        _ = app.handle(.pointerUp(at: c, button: 1, time: now))
        app.settle(stepping: clock)
    }

    var now: Seconds { clock.now }
    var copy: Node? { app.root.descendant(named: "transitionImage") }
    var fit: Rect { app.viewer!.fitFrame }
    var cellFrame: Rect { app.grid.cell(at: index).convert(app.grid.cell(at: index).bounds, to: nil) }

    /// Presses at the photo's centre and moves by `steps` (px per frame), one frame each.
    func pull(_ steps: [Point], from start: Point? = nil) -> Point {
        var p = start ?? fit.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for step in steps {
            clock.advanceFrame()
            app.tick()
            p = p + step
            _ = app.handle(.pointerMove(to: p, time: now))
        }
        return p
    }

    func release(at p: Point) { _ = app.handle(.pointerUp(at: p, button: 1, time: now)) }

    @Test(arguments: [40.0, 119.0, 120.0, 200.0, 239.0, 240.0, 300.0])
    func photoAndAlphasFollowTheSeedsFormulas(dy: Double) throws {
        let start = fit.center
        let steps = Array(repeating: Point(x: 3, y: dy / 10), count: 10)
        _ = pull(steps)
        let t = Point(x: 30, y: dy)
        let f = DismissalFormulas(viewHeight: 480, anchor: start, photoHeight: fit.height)
        let node = try #require(copy)
        #expect(abs(node.transform.a - (1 - 0.5 * min(dy / 240, 1))) < 1e-9)
        #expect(abs(node.transform.a - f.scale(t)) < 1e-9)
        #expect((node.center - f.center(t)).magnitude < 1e-9)
        let expectedCenter = Point(x: start.x + 30, y: start.y + dy - fit.height * f.scale(t) * (1 - f.scale(t)) / 2)
        #expect((node.center - expectedCenter).magnitude < 1e-9)
        #expect(abs(app.viewer!.root.alpha - (1 - min(dy / 120, 1))) < 1e-9)
        #expect(abs(app.grid.bars.tabBar.alpha - min(dy / 120, 1)) < 1e-9)
    }

    @Test func movingUpAtReleaseCancels() {
        let p = pull(Array(repeating: Point(x: 0, y: 15), count: 10) + Array(repeating: Point(x: 0, y: -6), count: 4))
        release(at: p)
        app.settle(stepping: clock)
        #expect(app.viewer != nil, "sprang back")
        #expect(app.viewer?.photoNode?.isHidden == false)
        #expect(app.viewer!.root.alpha == 1 && app.grid.bars.tabBar.alpha == 0)
    }

    @Test func aboveTheAnchorCancels() {
        // Down 60 px, back up to 20 px above the start, then held still: no upward velocity, but the
        // centre is above the anchor.
        let p = pull(Array(repeating: Point(x: 0, y: 15), count: 4) + Array(repeating: Point(x: 0, y: -20), count: 4))
        for _ in 0..<12 { clock.advanceFrame(); app.tick(); _ = app.handle(.pointerMove(to: p, time: now)) }
        #expect(try! #require(copy).center.y < fit.center.y)
        release(at: p)
        app.settle(stepping: clock)
        #expect(app.viewer != nil)
    }

    @Test func slowReleaseBelowTheAnchorFinishesInTheCell() {
        let p = pull(Array(repeating: Point(x: 0, y: 4), count: 60))   // 240 px/s, 240 px
        release(at: p)
        var last: Rect?
        var frames = 0
        while app.isAnimating && frames < 60 {
            last = copy?.frame
            clock.advanceFrame()
            app.tick()
            frames += 1
        }
        #expect(app.viewer == nil)
        #expect(frames == 15, "0.25 s at 60 Hz")
        #expect((last! - cellFrame).magnitude < 6)
        #expect(app.grid.bars.tabBar.alpha == 1)
    }

    /// Once a pull has closed the viewer, nothing holds its nodes: its pages' pictures (a zoomed
    /// photo's is its full decode) go with them, not at the next pull. (The pictures themselves stay
    /// in the tests' memoizing decoder.)
    @Test func aClosedViewerIsLetGo() {
        weak let viewerRoot = app.viewer?.root
        #expect(viewerRoot != nil)
        release(at: pull(Array(repeating: Point(x: 0, y: 12), count: 20)))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
        #expect(viewerRoot == nil, "the viewer's nodes are let go")
    }

    /// Position and velocity of the photo just before and just after release.
    func releaseContinuity(steps: [Point]) throws -> (before: Point, after: Point, velocity: Point, measured: Point) {
        let p = pull(steps)
        let before = try #require(copy).center
        // The finger's velocity, turned into the centre's by the formulas.
        let f = DismissalFormulas(viewHeight: 480, anchor: fit.center, photoHeight: fit.height)
        let t = p - fit.center
        let fingerVelocity = steps.last! * 60
        let velocity = f.centerVelocity(t, velocity: fingerVelocity)
        release(at: p)
        app.tick()
        let after = try #require(copy).center
        clock.advance(by: 0.0001)
        app.tick()
        let measured = (try #require(copy).center - after) * 10_000
        return (before, after, velocity, measured)
    }

    @Test func finishIsContinuousAtRelease() throws {
        let r = try releaseContinuity(steps: Array(repeating: Point(x: 2, y: 8), count: 30))   // 480 px/s down
        #expect((r.after - r.before).magnitude < 1e-9, "no jump in position")
        #expect((r.measured - r.velocity).magnitude < r.velocity.magnitude * 0.05, "\(r.measured) vs \(r.velocity)")
    }

    @Test func cancelIsContinuousAtRelease() throws {
        let r = try releaseContinuity(steps: Array(repeating: Point(x: 0, y: 10), count: 12)
                                      + Array(repeating: Point(x: 1, y: -5), count: 8))      // moving up
        #expect((r.after - r.before).magnitude < 1e-9)
        #expect((r.measured - r.velocity).magnitude < r.velocity.magnitude * 0.05 + 1, "\(r.measured) vs \(r.velocity)")
    }

    @Test func photoIsShownOnceOnEveryFrameOfPullCancelAndFinish() {
        let name = app.photos[index].name
        func timesShown() -> Int {
            func count(_ node: Node, _ alpha: Double) -> Int {
                let a = alpha * node.alpha
                guard !node.isHidden, a > 0 else { return 0 }
                return (node.contentsName == name && node.image != nil ? 1 : 0) + node.children.reduce(0) { $0 + count($1, a) }
            }
            return count(app.root, 1)
        }
        for (steps, finishes) in [(Array(repeating: Point(x: 0, y: 12), count: 8) + Array(repeating: Point(x: 0, y: -8), count: 5), false),
                                  (Array(repeating: Point(x: 0, y: 12), count: 8), true)] {
            var p = fit.center
            _ = app.handle(.pointerDown(at: p, button: 1, time: now))
            for step in steps {
                clock.advanceFrame(); app.tick()
                p = p + step
                _ = app.handle(.pointerMove(to: p, time: now))
                #expect(timesShown() == 1)
            }
            release(at: p)
            var frames = 0
            while app.isAnimating && frames < 90 {
                clock.advanceFrame(); app.tick(); frames += 1
                #expect(timesShown() == 1, "frame \(frames)")
            }
            #expect((app.viewer == nil) == finishes)
        }
    }
}

@Suite struct DebugOverlayTests {
    @Test func dShowsWhatAReleaseWouldDoNow() {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 640, height: 480), clock: clock)
        _ = app.handle(.key(name: "d", modifiers: []))
        #expect(app.root.descendant(named: "debugOverlay") != nil)
        let c = app.cellFrame(1).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: c, button: 1, time: 1.04))
        app.settle(stepping: clock)
        var p = Point(x: 320, y: 240), now: Seconds = 5
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for _ in 0..<8 {
            clock.advanceFrame(); now += 0.016
            p = p + Point(x: 0, y: 12)
            _ = app.handle(.pointerMove(to: p, time: now))
            app.tick()
        }
        func line(_ i: Int) -> String { app.root.descendant(named: "debugOverlay.line.\(i)")?.text?.string ?? "" }
        #expect(line(0) == "viewer · held by finger · pulling")
        #expect(line(3) == "zoom 1.00× fit")
        #expect(line(4) == "release → finish (into the cell)")
        for _ in 0..<6 {
            clock.advanceFrame(); now += 0.016
            p = p + Point(x: 0, y: -10)
            _ = app.handle(.pointerMove(to: p, time: now))
            app.tick()
        }
        #expect(line(4) == "release → cancel (spring back)")
        _ = app.handle(.key(name: "d", modifiers: []))
        #expect(app.root.descendant(named: "debugOverlay") == nil)
    }
}
