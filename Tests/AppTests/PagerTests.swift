import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
@testable import App
@testable import Viewer

/// The horizontal pager in the viewer (issue 5 point 2) and the grid kept in step with it (point 6).
@Suite struct PagerTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    init() {
        app = settledApp(size: Size(width: 400, height: 400), clock: clock)
    }

    var now: Seconds { clock.now }

    func open(_ index: Int) {
        let cell = app.grid.cell(at: index)
        let c = cell.convert(cell.bounds, to: nil).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: now))
        _ = app.handle(.pointerUp(at: c, button: 1, time: now))
        app.settle(stepping: clock)
    }

    /// A horizontal drag of `dx` px over `frames` frames, released without stopping.
    func swipe(_ dx: Double, frames: Int) {
        var p = Point(x: 200, y: 200)
        _ = app.handle(.pointerDown(at: p, button: 1, time: now))
        for _ in 0..<frames {
            clock.advanceFrame(); app.tick()
            p = p + Point(x: dx / Double(frames), y: 0)
            _ = app.handle(.pointerMove(to: p, time: now))
        }
        _ = app.handle(.pointerUp(at: p, button: 1, time: now))
        app.settle(stepping: clock)
    }

    func key(_ name: String) {
        _ = app.handle(.key(name: name, modifiers: []))
        app.settle(stepping: clock)
    }

    @Test func dragFollowsTheFinger() {
        open(2)
        let viewer = app.viewer!
        let start = viewer.pagingOffset
        _ = app.handle(.pointerDown(at: Point(x: 300, y: 200), button: 1, time: now))
        clock.advanceFrame()
        _ = app.handle(.pointerMove(to: Point(x: 250, y: 202), time: now))
        clock.advanceFrame()
        _ = app.handle(.pointerMove(to: Point(x: 180, y: 203), time: now))
        #expect(viewer.pagingOffset == start + 120)
        #expect(viewer.pitch == 410, "10 px between pages")
    }

    @Test func fastShortFlickTurnsThePage() {
        open(2)
        swipe(-80, frames: 4)       // 1200 px/s, a fifth of a page
        #expect(app.viewer?.index == 3)
        #expect(app.viewer?.pagingOffset == 3.0 * 410)
        #expect(app.grid.transitionIndex() == 3, "the grid is told the settled page")
    }

    @Test func slowShortDragGoesBack() {
        open(2)
        swipe(-150, frames: 60)     // 150 px/s, under half a page
        #expect(app.viewer?.index == 2)
        #expect(app.viewer?.pagingOffset == 2.0 * 410)
    }

    @Test func slowDragPastHalfTurnsThePage() {
        open(2)
        swipe(260, frames: 90)      // right: the previous photo
        #expect(app.viewer?.index == 1)
    }

    @Test func keysPageAndTheFirstAndLastStay() {
        open(0)
        key("Left")
        #expect(app.viewer?.index == 0)
        key("Right"); key("Right")
        #expect(app.viewer?.index == 2)
        #expect(app.grid.transitionIndex() == 2)
    }

    /// A key slides the next page in within a quarter of a second; a second key while it slides
    /// goes on to the page after it.
    @Test func aKeySlidesThePageInAQuarterOfASecond() {
        open(2)
        _ = app.handle(.key(name: "Right", modifiers: []))
        var frames = 0
        while app.isAnimating {
            clock.advanceFrame()
            app.tick()
            frames += 1
        }
        #expect(frames <= 16, "\(frames) frames at 60 Hz")
        #expect(app.viewer?.pagingOffset == 3.0 * 410 && app.grid.transitionIndex() == 3)

        _ = app.handle(.key(name: "Right", modifiers: []))
        for _ in 0..<5 { clock.advanceFrame(); app.tick() }
        _ = app.handle(.key(name: "Right", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer?.index == 5 && app.viewer?.pagingOffset == 5.0 * 410)
    }

    /// Paging from the end of one row to the start of the next, then back to a cell that had
    /// scrolled out of view: the photo lands on the cell where it is, fully visible.
    @Test func flyBackLandsOnTheCurrentPhotosCell() throws {
        open(3)
        key("Right")                                  // 3 → 4: the next row
        for _ in 0..<8 { key("Right") }               // → 12: row 3, under the tab bar when opened
        #expect(app.viewer?.index == 12)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        var last: Rect?
        while app.isAnimating {
            last = app.root.descendant(named: "transitionImage")?.frame
            clock.advanceFrame(); app.tick()
        }
        let cell = app.grid.cell(at: 12).convert(app.grid.cell(at: 12).bounds, to: nil)
        #expect(cell.maxY <= 400 - 56, "fully visible above the tab bar")
        #expect((try #require(last) - cell).magnitude < 4)
        #expect(app.viewer == nil)
    }
}

@Suite struct ViewerChromeTests {
    @Test func tapTogglesTheBarsAndTheBackButtonCloses() {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 640, height: 480), clock: clock)
        func tap(_ p: Point) {
            let now = clock.now
            _ = app.handle(.pointerDown(at: p, button: 1, time: now))
            _ = app.handle(.pointerUp(at: p, button: 1, time: now + 0.04))
            app.settle(stepping: clock)
        }
        tap(app.cellFrame(2).center)
        let viewer = app.viewer!
        #expect(viewer.barsVisible)
        #expect(app.root.descendant(named: "viewer.title")?.text?.string == app.photos[2].name)
        tap(Point(x: 320, y: 300))
        #expect(!viewer.barsVisible && viewer.topBar.alpha == 0)
        #expect(viewer.button(at: Point(x: 40, y: 28)) == nil, "a hidden button can't be pressed")
        tap(Point(x: 40, y: 28))            // shows the bars again
        #expect(viewer.barsVisible)
        tap(Point(x: 40, y: 28))            // now it is the back button
        #expect(app.viewer == nil)
    }
}
