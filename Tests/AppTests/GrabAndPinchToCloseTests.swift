import Animation
import Geometry
import SceneGraph
import Input
import Testing
@testable import App

/// Pinch to close (a pinch below fit feeds the dismissal) and grabbing the photo mid-flight
/// (issue 5, points 4 and 9), with the phantom rule on every frame.
@Suite struct PinchToCloseTests {
    /// astronaut.png (square) in a 640×480 window.
    let v = OpenViewer(index: 1, size: Size(width: 640, height: 480))

    /// Runs frames until nothing moves, checking that the photo is shown exactly once on each.
    func runChecked(_ limit: Int = 120) {
        var frames = 0
        while v.app.isAnimating && frames < limit {
            v.frames(1)
            frames += 1
            #expect(v.app.timesShown(v.name) == 1, "frame \(frames)")
        }
    }

    @Test func pinchingInAtFitShrinksThePhotoUnderTheFingersAndFadesTheBackground() throws {
        let fit = v.viewer.fitFrame
        let center = Point(x: 320, y: 240)
        v.pinch(about: center, scales: OpenViewer.ramp(1, 0.6, 12), hold: true)
        let copy = try #require(v.copy, "the photo is in the air, as in a pull")
        #expect(abs(copy.transform.a - 0.6) < 1e-9)
        #expect(abs(copy.frame.width - fit.width * 0.6) < 1e-6)
        #expect(copy.center == center + (fit.center - center) * 0.6)
        #expect(v.viewer.root.alpha == 0, "the same alphas as a pull that shows scale 0.6")
        #expect(v.app.grid.bars.tabBar.alpha == 1)
        #expect(v.app.timesShown(v.name) == 1)
    }

    @Test func aClosingPinchFlysThePhotoIntoItsCell() {
        v.pinch(about: Point(x: 320, y: 240), scales: OpenViewer.ramp(1, 0.5, 10))
        runChecked()
        #expect(v.app.viewer == nil, "closed")
        #expect(v.app.grid.cell(at: 1).isHidden == false)
        #expect(v.app.grid.bars.tabBar.alpha == 1)
    }

    @Test func openingTheFingersAgainBeforeLettingGoCancels() {
        v.pinch(about: Point(x: 320, y: 240), scales: OpenViewer.ramp(1, 0.7, 8) + OpenViewer.ramp(0.7, 0.95, 8))
        runChecked()
        #expect(v.app.viewer != nil, "sprang back")
        #expect(v.photoFrame == v.viewer.fitFrame)
        #expect(v.viewer.root.alpha == 1 && v.app.grid.bars.tabBar.alpha == 0)
    }
}

@Suite struct PullThenPinchTests {
    /// As on a phone: pull the photo down with one finger, put a second one down, and pinch it home.
    @Test func aSecondFingerJoiningAPullCarriesThePhotoOnWithoutAJump() throws {
        let v = OpenViewer(index: 1, size: Size(width: 640, height: 480))
        var p = v.viewer.fitFrame.center
        _ = v.app.handle(.touch(.begin, id: 0, at: p, time: v.now))
        for _ in 0..<6 {
            v.frames(1)
            p = p + Point(x: 0, y: 10)
            _ = v.app.handle(.touch(.update, id: 0, at: p, time: v.now))
        }
        let pulled = try #require(v.copy).frame
        let second = p + Point(x: 120, y: 0)
        _ = v.app.handle(.touch(.begin, id: 1, at: second, time: v.now))
        v.frames(1)
        let held = try #require(v.copy, "still in the air: the pull did not end").frame
        #expect((held.center - pulled.center).magnitude < 0.5 && abs(held.width - pulled.width) < 0.5, "\(held) vs \(pulled)")
        // Pinch in about the two fingers' middle.
        for i in 1...8 {
            v.frames(1)
            let s = 1 - 0.06 * Double(i)
            let middle = Point(x: p.x + 60, y: p.y)
            _ = v.app.handle(.touch(.update, id: 0, at: middle - Point(x: 60 * s, y: 0), time: v.now))
            _ = v.app.handle(.touch(.update, id: 1, at: middle + Point(x: 60 * s, y: 0), time: v.now))
        }
        let pinched = try #require(v.copy).frame
        #expect(abs(pinched.width / held.width - (1 - 0.48)) < 0.02, "shrinks with the fingers: \(pinched.width) from \(held.width)")
        _ = v.app.handle(.touch(.end, id: 0, at: p, time: v.now))
        _ = v.app.handle(.touch(.end, id: 1, at: second, time: v.now))
        var frames = 0
        while v.app.isAnimating && frames < 60 {
            v.frames(1)
            frames += 1
            #expect(v.app.timesShown(v.name) == 1, "frame \(frames)")
        }
        #expect(v.app.viewer == nil, "closing when let go: into the cell")
    }
}

@Suite struct GrabMidFlightTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp
    let index = 1
    var name: String { app.photos[index].name }
    var now: Seconds { clock.now }
    var copy: Node? { app.root.descendant(named: "transitionImage") }

    init() { app = settledApp(size: Size(width: 640, height: 480), clock: clock) }

    func frames(_ n: Int) {
        for _ in 0..<n {
            clock.advanceFrame()
            app.tick()
            #expect(app.timesShown(name) == 1)
        }
    }

    func openAndRunFor(_ n: Int) {
        let c = app.cellFrame(index).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: now))
        _ = app.handle(.pointerUp(at: c, button: 1, time: now))
        frames(n)
    }

    @Test func aPressDuringTheZoomInStopsThePhotoAndAPullTakesItBackToTheGrid() throws {
        openAndRunFor(8)
        let flying = try #require(copy).frame
        let p = flying.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        frames(5)
        let held = try #require(copy).frame
        #expect(held.center == flying.center && abs(held.width - flying.width) < 1 && abs(held.height - flying.height) < 1,
                "held still where it was: \(held) vs \(flying)")
        // Down 120 px in 8 frames and let go moving down: it goes into its cell.
        for i in 1...8 {
            frames(1)
            _ = app.handle(.pointerMove(to: p + Point(x: 0, y: 15 * Double(i)), time: now))
        }
        let pulled = try #require(copy).frame
        #expect(pulled.contains(p + Point(x: 0, y: 120)) && pulled.midY > p.y + 60, "under the finger: \(pulled) vs \(p)")
        _ = app.handle(.pointerUp(at: p + Point(x: 0, y: 120), button: 1, time: now))
        frames(1)
        app.settle(stepping: clock)
        #expect(app.viewer == nil, "back in the grid")
        #expect(app.timesShown(name) == 1)
    }

    @Test func aResizeWhileHoldingATakenPhotoStillLandsInTheCell() throws {
        openAndRunFor(8)
        let p = try #require(copy).frame.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for i in 1...4 {
            frames(1)
            _ = app.handle(.pointerMove(to: p + Point(x: 0, y: 20 * Double(i)), time: now))
        }
        app.resize(to: Size(width: 500, height: 640))
        frames(1)
        for i in 5...8 {
            frames(1)
            _ = app.handle(.pointerMove(to: p + Point(x: 0, y: 20 * Double(i)), time: now))
        }
        _ = app.handle(.pointerUp(at: p + Point(x: 0, y: 160), button: 1, time: now))
        var frames = 0
        while app.isAnimating && frames < 60 {
            self.frames(1)
            frames += 1
            if let flying = copy, frames == 14 {
                #expect((flying.frame.center - app.cellFrame(index).center).magnitude < 40, "heading for the cell where it is now")
            }
        }
        #expect(app.viewer == nil)
        #expect(copy == nil && !app.grid.cell(at: index).isHidden)
    }

    @Test func aClickOnThePhotoZoomingInLetsItCarryOnIntoTheViewer() throws {
        openAndRunFor(6)
        let p = try #require(copy).frame.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        frames(2)
        _ = app.handle(.pointerUp(at: p, button: 1, time: now))   // a double click on the thumbnail, say
        frames(60)
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer, "still opened")
        #expect(viewer.photoFrame == viewer.fitFrame)
        #expect(viewer.root.alpha == 1 && app.grid.bars.tabBar.alpha == 0)
    }

    @Test func aPressDuringTheFlyBackAndAnUpwardFlickReturnsToTheViewer() throws {
        openAndRunFor(0)
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        frames(5)
        let p = try #require(copy).frame.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for i in 1...6 {
            frames(1)
            _ = app.handle(.pointerMove(to: p - Point(x: 0, y: 8 * Double(i)), time: now))
        }
        _ = app.handle(.pointerUp(at: p - Point(x: 0, y: 48), button: 1, time: now))
        frames(1)
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer, "moving up cancels: the photo stays open")
        #expect(viewer.photoFrame == viewer.fitFrame)
        #expect(viewer.root.alpha == 1 && app.grid.bars.tabBar.alpha == 0)
        #expect(copy == nil)
    }

    @Test func aPressOnThePhotoSpringingBackTakesItAgain() throws {
        openAndRunFor(0)
        app.settle(stepping: clock)
        let fit = try #require(app.viewer).fitFrame
        // Pull down 100 px and back up a little: released moving up, it springs back.
        var p = fit.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for step in Array(repeating: 20.0, count: 5) + [-5, -5] {
            frames(1)
            p = p + Point(x: 0, y: step)
            _ = app.handle(.pointerMove(to: p, time: now))
        }
        _ = app.handle(.pointerUp(at: p, button: 1, time: now))
        frames(4)
        let springing = try #require(copy)
        let caught = springing.frame
        _ = app.handle(.pointerDown(at: caught.center, button: 1, time: now))
        frames(3)
        #expect(springing.center == caught.center && abs(springing.frame.width - caught.width) < 1, "stopped where it was")
        // Now pull it all the way down: it goes into its cell.
        for i in 1...10 {
            frames(1)
            _ = app.handle(.pointerMove(to: caught.center + Point(x: 0, y: 20 * Double(i)), time: now))
        }
        _ = app.handle(.pointerUp(at: caught.center + Point(x: 0, y: 200), button: 1, time: now))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
    }

    @Test func theBarsFadeOutWhilePullingAndComeBackIfThePhotoSpringsBack() throws {
        openAndRunFor(0)
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer)
        #expect(viewer.barsVisible)
        var p = viewer.fitFrame.center
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for _ in 1...20 {
            frames(1)
            p = p + Point(x: 0, y: 3)
            _ = app.handle(.pointerMove(to: p, time: now))
        }
        #expect(viewer.topBar.alpha == 0, "hidden while pulling")
        _ = app.handle(.pointerMove(to: p - Point(x: 0, y: 30), time: now))
        frames(1)
        _ = app.handle(.pointerMove(to: p - Point(x: 0, y: 60), time: now))
        _ = app.handle(.pointerUp(at: p - Point(x: 0, y: 60), button: 1, time: now))
        app.settle(stepping: clock)
        #expect(app.viewer != nil)
        #expect(viewer.barsVisible, "back with the photo")
    }
}

@Suite struct GrabFromAZoomedPageTests {
    @Test func takingTheFlightOutOfAZoomedPageAndFlickingUpReturnsToTheViewerAtFit() throws {
        let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))
        v.doubleTap(Point(x: 400, y: 300))
        v.settle()
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        v.frames(4)
        let p = Point(x: 400, y: 300)
        #expect(try #require(v.copy).frame.contains(p))
        v.press(p)
        for i in 1...6 {
            v.frames(1)
            v.move(p - Point(x: 0, y: 6 * Double(i)))
        }
        v.lift(p - Point(x: 0, y: 36))
        var frames = 0
        while v.app.isAnimating && frames < 90 {
            v.frames(1)
            frames += 1
            #expect(v.app.timesShown(v.name) == 1, "frame \(frames)")
        }
        let viewer = try #require(v.app.viewer, "sprang back into the viewer")
        #expect(viewer.zoomScale == 1)
        #expect(viewer.photoFrame == Rect(x: 0, y: 0, width: 800, height: 600))
    }
}
