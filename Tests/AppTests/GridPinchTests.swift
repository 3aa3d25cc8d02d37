import Animation
import Geometry
import Input
import Testing
import TestSupport
@testable import App

/// Pinching the grid: two fingers (or Ctrl+wheel, `+` and `-`) change its columns between 3 and 9
/// (on a phone-sized window), the layout following the fingers part-way between two counts, and
/// settling with a spring on a whole one; the photo under the fingers stays under them.
@Suite struct GridPinchTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    /// The bundled photos four times over: 60, more than a screen at every density from 3 columns to 5.
    init() {
        app = settledApp(size: Size(width: 400, height: 800), folders: Array(repeating: TestImages.bundledFolder, count: 4),
                         clock: clock)
    }

    func frames(_ n: Int) {
        for _ in 0..<n {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
        }
    }

    /// Two fingers `spread` px either side of `center`, horizontally, at `scales` on successive frames;
    /// `check` runs after each. Held still for `still` frames, then lifted.
    func pinch(about center: Point, scales: [Double], spread: Double = 60, still: Int = 0, check: () -> Void = {}) {
        func fingers(_ phase: TouchPhase, _ s: Double) {
            _ = app.handle(.touch(phase, id: 0, at: Point(x: center.x - spread * s, y: center.y), time: clock.now))
            _ = app.handle(.touch(phase, id: 1, at: Point(x: center.x + spread * s, y: center.y), time: clock.now))
        }
        fingers(.begin, 1)
        for s in scales + Array(repeating: scales.last ?? 1, count: still) {
            frames(1)
            fingers(.update, s)
            check()
        }
        fingers(.end, scales.last ?? 1)
    }

    static func ramp(_ from: Double, _ to: Double, _ n: Int) -> [Double] {
        (1...n).map { from + (to - from) * Double($0) / Double(n) }
    }

    /// How far down photo `index`'s cell `point` is (0 top … 1 bottom).
    func depth(of point: Point, in index: Int) -> Double {
        let cell = app.cellFrame(index)
        return (point.y - cell.minY) / cell.height
    }

    @Test func spreadingTwoFingersGivesFewerLargerPhotosAndTheOneUnderThemStaysThere() throws {
        #expect(app.grid.layout.columns == 4)
        let center = Point(x: 150, y: 400)
        let held = try #require(app.grid.index(at: center))
        let startDepth = depth(of: center, in: held)
        var worst = 0.0
        pinch(about: center, scales: Self.ramp(1, 1.45, 20)) {
            // The held photo's row stays at the fingers: the point it was held at is where they are.
            let cell = app.cellFrame(held)
            worst = max(worst, abs(cell.minY + startDepth * cell.height - center.y))
        }
        #expect(worst <= 2, "the photo under the fingers drifted \(worst) px from them")
        #expect(app.grid.isChangingColumns, "it settles after the fingers let go")
        app.settle(stepping: clock)
        #expect(!app.grid.isChangingColumns && app.grid.layout.columns == 3)
        let cell = app.cellFrame(held)
        #expect(abs(cell.minY + startDepth * cell.height - center.y) <= 2, "still under the fingers once settled")
        #expect(app.grid.index(at: cell.center) == held, "and taps find it where it is drawn")
    }

    @Test func pinchingInGivesMoreColumnsUpToNineThenResists() {
        pinch(about: Point(x: 200, y: 400), scales: Self.ramp(1, 0.55, 15), still: 20)
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 7, "4 columns ÷ 0.55, held still: the nearest count")
        var widest = 0.0
        pinch(about: Point(x: 200, y: 400), scales: Self.ramp(1, 0.3, 15)) {
            widest = max(widest, app.grid.cell(at: 0).frame.width)
        }
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 9, "never past 9 on a phone-sized window")
        #expect(app.cellFrame(0).width < 44 && app.cellFrame(0).width > 40)
    }

    @Test func controlWheelAndPlusMinusStepAColumnAboutThePointer() {
        let at = Point(x: 300, y: 300)
        _ = app.handle(.scroll(dx: 0, dy: 1, unit: .notches, at: at, modifiers: .control))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 5, "a notch down: a column more")
        _ = app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: at, modifiers: .control))
        _ = app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: at, modifiers: .control))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 3, "two notches up while it glides: two fewer")
        for _ in 0..<4 { _ = app.handle(.scroll(dx: 0, dy: 0.3, unit: .smooth, at: at, modifiers: .control)) }
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 4, "a touchpad's Ctrl+scroll adds up to a notch")
        _ = app.handle(.key(name: "minus", modifiers: .control))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 5)
        _ = app.handle(.key(name: "plus", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 4)
        _ = app.handle(.scroll(dx: 0, dy: 1, unit: .notches, at: at, modifiers: []))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 4 && app.grid.scrollOffset > 0, "without Ctrl the wheel scrolls")
    }

    /// At another density a tap opens the photo tapped, flying out of its cell, and closing flies it
    /// back into its cell there.
    @Test func theZoomTransitionFindsItsCellAtEveryDensity() throws {
        for notches in [1.0, -2] {
            _ = app.handle(.scroll(dx: 0, dy: notches, unit: .notches, at: Point(x: 200, y: 400), modifiers: .control))
        }
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 3)
        let index = try #require(app.grid.index(at: Point(x: 200, y: 400)))
        let cell = app.cellFrame(index)
        _ = app.handle(.pointerDown(at: cell.center, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: cell.center, button: 1, time: clock.now))
        let flying = try #require(app.root.descendant(named: "transitionImage"))
        #expect(flying.convert(flying.bounds, to: nil) == cell, "it flies out of the cell tapped")
        app.settle(stepping: clock)
        #expect(app.viewer?.index == index)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil && app.root.descendant(named: "transitionImage") == nil)
        #expect(app.cellFrame(index) == cell && !app.grid.cell(at: index).isHidden && app.grid.cell(at: index).alpha == 1,
                "back in its cell")
    }

    /// A tap while the columns settle only stops them there; a resize keeps the count chosen.
    @Test func aTapWhileTheColumnsSettleOpensNothingAndAResizeKeepsThem() {
        _ = app.handle(.scroll(dx: 0, dy: 1, unit: .notches, at: Point(x: 200, y: 400), modifiers: .control))
        frames(3)
        #expect(app.grid.isChangingColumns)
        let p = Point(x: 100, y: 300)
        _ = app.handle(.pointerDown(at: p, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: p, button: 1, time: clock.now))
        app.settle(stepping: clock)
        #expect(app.viewer == nil && app.grid.layout.columns == 5)
        app.resize(to: Size(width: 500, height: 800))
        #expect(app.grid.layout.columns == 5)
    }

    /// `0` on the grid glides back to the count the width gives, the chosen photo held where it is; from
    /// then on a resize chooses the count again, as at launch.
    @Test func zeroGlidesBackToTheWidthsColumnsAndResizesChooseAgain() throws {
        _ = app.handle(.key(name: "Right", modifiers: []))   // the selection, on the second photo
        for _ in 0..<2 { _ = app.handle(.key(name: "plus", modifiers: [])) }
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 3 && app.grid.chosenColumns == 3)
        let held = app.cellFrame(1).center
        _ = app.handle(.key(name: "0", modifiers: []))
        frames(3)
        #expect(app.grid.isChangingColumns, "it glides")
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 4 && app.grid.chosenColumns == nil)
        #expect(abs(app.cellFrame(1).center.y - held.y) <= 2, "the chosen photo stays at its height: \(app.cellFrame(1)) from \(held)")
        app.resize(to: Size(width: 1000, height: 800))
        #expect(app.grid.layout.columns == 6, "a resize chooses by the width again (cells of at most 180 px)")
        _ = app.handle(.key(name: "0", modifiers: []))
        #expect(!app.grid.isChangingColumns, "already there: nothing moves")
    }

    /// Cells grown past the thumbnails' size (4 columns on a wide window) get thumbnails that cover them;
    /// back at 8 columns, thumbnails of the usual size again.
    @Test func largerCellsGetSharperThumbnailsAndSmallerOnesSmallerAgain() throws {
        let wide = settledApp(size: Size(width: 1280, height: 800), clock: clock)
        #expect(wide.grid.layout.columns == 8)
        _ = wide.handle(.scroll(dx: 0, dy: -4, unit: .notches, at: Point(x: 640, y: 300), modifiers: .control))
        wide.settle(stepping: clock)
        #expect(wide.grid.layout.columns == 4)
        let cell = wide.cellFrame(0)
        let thumbnail = try #require(wide.grid.picture(at: 0))
        #expect(cell.width > 300)
        #expect(Double(min(thumbnail.width, thumbnail.height)) >= cell.width, "\(thumbnail.width)x\(thumbnail.height) for \(cell)")
        // Back to small cells, the large thumbnails go: memory follows the cells, not the largest they were.
        _ = wide.handle(.key(name: "0", modifiers: []))
        wide.settle(stepping: clock)
        let small = try #require(wide.grid.picture(at: 0))
        #expect(min(small.width, small.height) < min(thumbnail.width, thumbnail.height) * 2 / 3
                && Double(min(small.width, small.height)) >= wide.cellFrame(0).width,
                "\(small.width)x\(small.height) for \(wide.cellFrame(0)), after \(thumbnail.width)x\(thumbnail.height)")
    }
}
