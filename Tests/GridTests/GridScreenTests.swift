import Animation
import Geometry
import Grid
import SceneGraph
import Testing
import Transitions

/// The grid screen on its own: 30 cells in a 400×300 window (4 columns of 98 px, bars 56 and 49 px).
@Suite struct GridScreenTests {
    let grid: GridScreen
    let flights: ZoomAnimator

    init() {
        let animator = Animator(clock: ManualClock(fps: 60))
        grid = GridScreen(photoCount: 30, size: Size(width: 400, height: 300), animator: animator)
        flights = ZoomAnimator(animator: animator, layer: Node(name: "layer"))
    }

    var top: Double { grid.layout.topInset }
    var bottom: Double { 300 - grid.layout.bottomInset }
    func onScreen(_ i: Int) -> Rect { grid.cell(at: i).convert(grid.cell(at: i).bounds, to: nil) }

    /// The bars cover the cells that scroll under them: a point on a bar is on no cell.
    @Test func thePointsUnderTheBarsAreOnNoCell() {
        grid.scrolling.setOffset(40)
        let x = onScreen(1).midX
        #expect(grid.index(at: Point(x: x, y: top - 1)) == nil && grid.index(at: Point(x: x, y: top + 1)) != nil)
        #expect(grid.index(at: Point(x: x, y: bottom + 1)) == nil && grid.index(at: Point(x: x, y: bottom - 1)) != nil)
    }

    /// A flight starts from the visible part of a cell half under the title bar.
    @Test func aFlightStartsFromTheCellsVisiblePart() throws {
        grid.scrolling.setOffset(50)
        grid.transitionIndex = { 1 }
        let cell = onScreen(1)
        #expect(cell.minY < top && cell.maxY > top)
        let start = try #require(grid.referenceImageFrameInTransitioningView(for: flights))
        #expect(start == Rect(x: cell.minX, y: top, width: cell.width, height: cell.maxY - top))
        grid.transitionIndex = { 20 }
        #expect(grid.referenceImageFrameInTransitioningView(for: flights) == onScreen(20), "wholly under a bar: the cell")
    }

    /// `reveal` scrolls as little as it must; `centre` (the seeds') puts the cell mid-way between the bars.
    @Test func revealScrollsLeastAndCentreCentres() {
        grid.reveal(13)
        #expect(abs(onScreen(13).maxY - bottom) < 1e-9)
        grid.centre(13)
        #expect(abs(onScreen(13).midY - (top + bottom) / 2) < 1e-9)
        grid.centre(0)
        #expect(grid.scrollOffset == 0, "as far as the content goes")
    }
}
