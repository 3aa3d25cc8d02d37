import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
@testable import App

/// Tap a cell: the photo flies into the viewer; Escape: it flies back (DESIGN points 2, 6 and 7).
@Suite struct ZoomTransitionTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp
    /// astronaut.png, second in the bundled folder, in the grid's first row.
    let index = 1
    var name: String { app.photos[index].name }

    init() {
        app = settledApp(size: Size(width: 640, height: 480), clock: clock)
    }

    var cellFrame: Rect { app.grid.cell(at: index).convert(app.grid.cell(at: index).bounds, to: nil) }

    func tapCell() {
        let c = cellFrame.center
        _ = app.handle(.pointerDown(at: c, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: c, button: 1, time: 1.05))
    }

    /// How many visible nodes show the photo: every node up to the root shown, alpha above zero.
    func timesShown(_ photo: String) -> Int {
        func count(_ node: Node, _ alpha: Double) -> Int {
            let a = alpha * node.alpha
            guard !node.isHidden, a > 0 else { return 0 }
            return (node.contentsName == photo && node.image != nil ? 1 : 0) + node.children.reduce(0) { $0 + count($1, a) }
        }
        return count(app.root, 1)
    }

    /// Runs frames until the transition is over, checking the phantom rule on each; returns the
    /// flying copy's frames.
    func runTransition() -> [Rect] {
        var flights: [Rect] = []
        var frames = 0
        while app.isAnimating && frames < 120 {
            #expect(timesShown(name) == 1, "frame \(frames): the photo is shown \(timesShown(name)) times")
            if let copy = app.root.descendant(named: "transitionImage") { flights.append(copy.frame) }
            clock.advanceFrame()
            app.tick()
            frames += 1
        }
        #expect(timesShown(name) == 1, "after the last frame")
        return flights
    }

    @Test func zoomInFliesFromTheCellToTheAspectFitFrame() throws {
        tapCell()
        let viewer = try #require(app.viewer)
        #expect(viewer.index == index)
        let flights = runTransition()
        #expect(flights.first == cellFrame, "starts on the cell")
        // 0.5 s at 60 Hz: the spring ends (and snaps) on frame 30.
        #expect(flights.count == 30)
        let fit = viewer.fitFrame
        #expect(abs(fit.width / fit.height - 1) < 0.01, "the astronaut is square")
        #expect((flights.last! - fit).magnitude < 2, "within 2 px of the end on the last frame in flight")
        #expect(app.root.descendant(named: "transitionImage") == nil)
        #expect(viewer.root.alpha == 1)
        #expect(app.grid.bars.tabBar.alpha == 0)
        let photo = try #require(viewer.photoNode)
        let page = try #require(photo.parent)
        #expect(page.convert(page.bounds, to: nil) == Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(fit == Rect(x: 80, y: 0, width: 480, height: 480), "the square photo, aspect-fit and centred")
        #expect(photo.convert(photo.bounds, to: nil) == fit, "the photo at rest is where the flight landed")
    }

    @Test func escapeFliesBackIntoTheCellIn025s() throws {
        tapCell()
        _ = runTransition()
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        let flights = runTransition()
        #expect(flights.count == 15, "0.25 s at 60 Hz")
        #expect((flights.last! - cellFrame).magnitude < 4, "ease-out: nearly there on the last frame")
        #expect(app.viewer == nil)
        #expect(app.grid.bars.tabBar.alpha == 1)
        #expect(app.root.descendant(named: "viewer") == nil)
        #expect(app.grid.cell(at: index).isHidden == false)
    }

    @Test func backSpaceClosesToo() {
        tapCell()
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "BackSpace", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
    }

    @Test func aDragIsNotATap() {
        let c = cellFrame.center
        _ = app.handle(.pointerDown(at: c, button: 1, time: 1))
        _ = app.handle(.pointerMove(to: Point(x: c.x, y: c.y + 40), time: 1.03))
        _ = app.handle(.pointerUp(at: Point(x: c.x, y: c.y + 40), button: 1, time: 1.06))
        #expect(app.viewer == nil)
    }
}

@Suite struct SlowMotionTests {
    @Test func shiftSMakesTheZoomTenTimesSlower() {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 640, height: 480), clock: clock)
        _ = app.handle(.key(name: "S", modifiers: [.shift]))
        let c = app.cellFrame(0).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: c, button: 1, time: 1.05))
        var frames = 0
        while app.isAnimating && frames < 1000 { clock.advanceFrame(); app.tick(); frames += 1 }
        #expect(frames == 300, "0.5 s × 10 at 60 Hz")
        _ = app.handle(.key(name: "S", modifiers: [.shift]))
        _ = app.handle(.key(name: "Escape", modifiers: []))
        frames = 0
        while app.isAnimating && frames < 1000 { clock.advanceFrame(); app.tick(); frames += 1 }
        #expect(frames == 15, "back to normal speed")
    }
}

@Suite struct GridInStepTests {
    @Test func aCellHalfUnderTheTitleBarIsFullyVisibleWhenThePhotoFliesBack() throws {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 400, height: 400), folders: [TestImages.bundledFolder, TestImages.bundledFolder], clock: clock)
        app.grid.scrolling.setOffset(150)          // row 1 (y 156–254 in content) now half under the bar
        let cell = app.grid.cell(at: 5)
        let before = cell.convert(cell.bounds, to: nil)
        #expect(before.minY < 56 && before.maxY > 56)
        let tapAt = Point(x: before.midX, y: before.maxY - 10)
        _ = app.handle(.pointerDown(at: tapAt, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: tapAt, button: 1, time: 1.05))
        #expect(app.viewer?.index == 5)
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        var last: Rect?
        while app.isAnimating {
            last = app.root.descendant(named: "transitionImage")?.frame
            clock.advanceFrame()
            app.tick()
        }
        let after = cell.convert(cell.bounds, to: nil)
        #expect(after.minY == 56, "just below the title bar")
        #expect((try #require(last) - after).magnitude < 4, "the photo lands on the cell where it is now")
    }
}

@Suite struct GridKeyboardTests {
    @Test func arrowsMoveASelectionAndReturnOpensIt() {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 640, height: 480), clock: clock)
        func key(_ name: String) -> PhotoViewerApp.Request? { app.handle(.key(name: name, modifiers: [])) }
        #expect(app.grid.keyboardSelection == nil)
        _ = key("Right")
        #expect(app.grid.keyboardSelection == 0, "the first key shows the selection on the first photo")
        _ = key("Right"); _ = key("Down")
        #expect(app.grid.keyboardSelection == 1 + app.grid.layout.columns)
        _ = key("Up"); _ = key("Left"); _ = key("Left")
        #expect(app.grid.keyboardSelection == 0, "clamped at the first photo")
        _ = key("End")
        #expect(app.grid.keyboardSelection == 14)
        _ = key("Home")
        _ = key("Right")
        let ring = app.root.descendant(named: "grid.selection")!
        #expect(!ring.isHidden && ring.frame == app.grid.layout.cellFrame(at: 1))
        _ = key("Return")
        #expect(app.viewer?.index == 1)
        #expect(key("f") == .toggleFullScreen && key("F11") == .toggleFullScreen)
    }
}

/// Resizing the window in the middle of each transition (issue 5 point 10).
@Suite struct ResizeMidTransitionTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    init() { app = settledApp(size: Size(width: 640, height: 480), clock: clock) }

    func frames(_ n: Int) { for _ in 0..<n { clock.advanceFrame(); app.tick() } }

    /// Runs to the end; returns the copy's last frame in flight.
    func landing() -> Rect? {
        var last: Rect?
        while app.isAnimating {
            last = app.root.descendant(named: "transitionImage")?.frame
            clock.advanceFrame(); app.tick()
        }
        return last
    }

    func tap(_ p: Point) {
        _ = app.handle(.pointerDown(at: p, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: p, button: 1, time: 1.04))
    }

    @Test func duringZoomInTheCopyHeadsForTheNewFitFrame() throws {
        tap(app.cellFrame(1).center)
        frames(10)
        app.resize(to: Size(width: 900, height: 500))
        let last = try #require(landing())
        let fit = app.viewer!.fitFrame
        #expect(fit == Rect(x: 200, y: 0, width: 500, height: 500))
        #expect((last - fit).magnitude < 2)
        #expect(app.viewer!.photoNode!.isHidden == false)
    }

    @Test func duringZoomOutTheCopyLandsOnTheCellWhereItIsNow() throws {
        tap(app.cellFrame(6).center)
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        frames(5)
        app.resize(to: Size(width: 420, height: 700))     // 4 columns now: cell 6 moves
        let last = try #require(landing())
        #expect((last - app.cellFrame(6)).magnitude < 4)
        #expect(app.viewer == nil)
    }

    @Test func whilePullingTheFormulasUseTheNewHeight() throws {
        tap(app.cellFrame(1).center)
        app.settle(stepping: clock)
        var p = Point(x: 320, y: 240)
        _ = app.handle(.pointerDown(at: p, button: 1, time: 5))
        for i in 1...6 {
            clock.advanceFrame(); app.tick()
            p = p + Point(x: 0, y: 10)
            _ = app.handle(.pointerMove(to: p, time: 5 + Double(i) * 0.016))
        }
        app.resize(to: Size(width: 640, height: 800))
        #expect(abs(app.viewer!.root.alpha - (1 - 60.0 / 200)) < 1e-9, "H/4 is now 200 px")
        let copy = try #require(app.root.descendant(named: "transitionImage"))
        #expect(abs(copy.transform.a - (1 - 0.5 * 60 / 400)) < 1e-9)
    }
}
