import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
import Transitions
@testable import App

/// Motion defects found against the seeds' code, each as a user meets it.
@Suite struct MotionFixTests {
    /// Follows the photo in the air frame by frame until it lands; returns its last frame in the air.
    func lastFrameInTheAir(_ v: OpenViewer) -> Rect? {
        var last: Rect?
        while v.app.isAnimating {
            if let copy = v.copy { last = copy.convert(copy.bounds, to: nil) }
            v.frames(1)
        }
        return last
    }

    /// The system took the fingers away mid-pull (a cancelled touch sequence): the photo springs
    /// back instead of closing.
    @Test func aCancelledTouchSequenceSpringsBack() {
        let v = OpenViewer(index: 1, size: Size(width: 400, height: 600))
        let start = v.photoFrame.center
        _ = v.app.handle(.touch(.begin, id: 0, at: start, time: v.now))
        for i in 1...12 {
            v.frames(1)
            _ = v.app.handle(.touch(.update, id: 0, at: start + Point(x: 0, y: Double(i) * 20), time: v.now))
        }
        #expect(v.copy != nil, "pulled out")
        _ = v.app.handle(.touch(.cancel, id: 0, at: start + Point(x: 0, y: 240), time: v.now))
        v.settle()
        #expect(v.app.viewer != nil, "still open")
        #expect(v.copy == nil && v.photoFrame == v.viewer.fitFrame)
    }

    /// A pull that starts while a page still settles stops the page where it shows, and the photo
    /// springs back to that very place before the page settles: no jump.
    @Test func aPullDuringAPageSettleStopsThePageAndPullsFromThere() throws {
        let v = OpenViewer(index: 1, size: Size(width: 400, height: 600))
        v.drag(from: Point(x: 300, y: 300), to: Point(x: 200, y: 300), steps: 4)   // a flick to the next page
        v.frames(3)
        #expect(v.viewer.isPaging)
        let shown = v.photoFrame
        #expect(shown.minX > 20, "mid-slide (the page's fit frame starts at x = 0)")
        v.press(shown.center)
        v.move(shown.center + Point(x: 0, y: 60))   // the pull begins in the frame of the press
        #expect(!v.viewer.isPaging, "the page stopped")
        let copy = try #require(v.copy)
        #expect(abs(copy.center.x - shown.midX) < 1e-6, "pulled from where it showed")
        for y in [50.0, 40, 30, 20] {   // moving up: a release springs back
            v.frames(1)
            v.move(shown.center + Point(x: 0, y: y))
        }
        v.lift(shown.center + Point(x: 0, y: 20))
        let landed = try #require(lastFrameInTheAir(v))
        #expect(abs(landed.midX - shown.midX) < 3, "back where the page stood")
        #expect(v.app.viewer?.index == 2 && v.photoFrame == v.viewer.fitFrame && abs(v.photoFrame.minX) < 1e-9,
                "then the page settles")
    }

    /// A window resized while the photo flies into its cell after a pull: it lands in the cell
    /// where the cell is now.
    @Test func aResizeDuringTheFinishReAimsIt() throws {
        let v = OpenViewer(index: 6, size: Size(width: 400, height: 600))
        v.drag(from: v.photoFrame.center, to: v.photoFrame.center + Point(x: 0, y: 150), steps: 30)
        v.frames(3)
        let before = v.app.cellFrame(6)
        v.app.resize(to: Size(width: 700, height: 600))
        let after = v.app.cellFrame(6)
        #expect((after.center - before.center).magnitude > 50, "the cell moved")
        let landed = try #require(lastFrameInTheAir(v))
        #expect((landed.center - after.center).magnitude < 3 && v.app.viewer == nil)
    }

    /// A window resized while the photo springs back: it comes to rest on the new fit frame.
    @Test func aResizeDuringTheSpringBackReAimsIt() throws {
        let v = OpenViewer(index: 1, size: Size(width: 400, height: 600))
        let c = v.photoFrame.center
        v.drag(from: c, to: c + Point(x: 0, y: 100), steps: 10, hold: true)
        for y in [90.0, 80, 70, 60] {   // moving up: a release springs back
            v.frames(1)
            v.move(c + Point(x: 0, y: y))
        }
        v.lift(c + Point(x: 0, y: 60))
        v.frames(3)
        v.app.resize(to: Size(width: 700, height: 500))
        let landed = try #require(lastFrameInTheAir(v))
        #expect(v.app.viewer != nil, "it sprang back")
        guard let viewer = v.app.viewer else { return }
        #expect((landed.center - viewer.fitFrame.center).magnitude < 2 && viewer.photoFrame == viewer.fitFrame)
    }
}

/// The grid's bars cover the cells that scroll under them.
@Suite struct GridBarTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp
    let topInset: Double

    init() {
        app = settledApp(size: Size(width: 400, height: 300), clock: clock)   // the grid scrolls
        topInset = app.grid.layout.topInset
    }

    func tap(_ p: Point) {
        _ = app.handle(.pointerDown(at: p, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: p, button: 1, time: 1.05))
    }

    @Test func aTapOnTheTitleBarOpensNothingBeneathIt() {
        app.grid.scrolling.setOffset(100)
        let x = app.cellFrame(5).midX
        #expect(app.grid.index(at: Point(x: x, y: topInset + 5)) != nil && app.grid.index(at: Point(x: x, y: topInset - 5)) == nil)
        tap(Point(x: x, y: topInset / 2))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
    }

    /// A cell half under the title bar zooms out of its visible half, never drawn over the bar.
    @Test func aCellPartlyUnderTheBarFliesFromItsVisiblePart() throws {
        let cell = app.cellFrame(5)
        app.grid.scrolling.setOffset(cell.minY - topInset + cell.height / 2)
        let half = app.cellFrame(5)
        #expect(half.minY < topInset && half.maxY > topInset)
        tap(Point(x: half.midX, y: half.maxY - 5))
        let copy = try #require(app.root.descendant(named: "transitionImage"))
        let start = copy.convert(copy.bounds, to: nil)
        #expect(abs(start.minY - topInset) < 1e-9 && abs(start.maxY - half.maxY) < 1e-9)
    }
}

/// `--motion seeds` centres the grid on the current photo's cell after every settled page, as
/// the seeds' `scrollToItem(at:at: .centeredVertically)`; ours scrolls as little as it must.
@Suite struct GridFollowsThePagesTests {
    func pageToEight(_ motion: MotionStyle) -> (app: PhotoViewerApp, middle: Double) {
        let v = OpenViewer(index: 0, size: Size(width: 400, height: 300), motion: motion)
        for _ in 0..<8 {
            _ = v.app.handle(.key(name: "Right", modifiers: []))
            v.settle()
        }
        let layout = v.app.grid.layout
        return (v.app, layout.topInset + (300 - layout.topInset - layout.bottomInset) / 2)
    }

    @Test func theSeedsCentreTheCell() {
        let (app, middle) = pageToEight(.seeds)
        #expect(app.viewer?.index == 8 && abs(app.cellFrame(8).midY - middle) < 1e-6)
    }

    @Test func oursScrollsAsLittleAsItMust() {
        let (app, middle) = pageToEight(.fluid)
        let cell = app.cellFrame(8), layout = app.grid.layout
        #expect(abs(cell.maxY - (300 - layout.bottomInset)) < 1e-6, "just above the tab bar")
        #expect(abs(cell.midY - middle) > 20)
    }
}
