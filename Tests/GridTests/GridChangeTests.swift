import Animation
import Geometry
import Grid
import Pixels
import SceneGraph
import Testing

/// The photos change under the grid (files added, removed, renamed): cells glide, grow in and shrink away,
/// and what the user looks at stays where it is.
@Suite struct GridChangeTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator
    let grid: GridScreen

    /// 40 photos in a 400x300 window (4 columns of 98 px), scrolled to the middle.
    init() {
        animator = Animator(clock: clock)
        grid = GridScreen(photoCount: 40, size: Size(width: 400, height: 300), animator: animator)
        grid.scrolling.setOffset(300)
        for i in 0..<40 { grid.setThumbnail(.loaded(PixelImage(width: 4, height: 4)), at: i) }
    }

    func onScreen(_ i: Int) -> Rect { grid.cell(at: i).convert(grid.cell(at: i).bounds, to: nil) }

    func settle() {
        for _ in 0..<120 where animator.isAnimating {
            clock.advanceFrame()
            animator.tick()
        }
    }

    /// The first photo fully in view, and where it is on screen.
    func firstInView() -> (index: Int, frame: Rect) {
        let i = (0..<grid.photoCount).first { onScreen($0).minY >= grid.layout.topInset }!
        return (i, onScreen(i))
    }

    @Test func photosRemovedAndAddedAboveTheViewLeaveWhatIsInViewWhereItIs() throws {
        let (looked, frame) = firstInView()
        let picture = grid.cell(at: looked).image
        // Photos 0 and 1 go, a new one comes at 5: the photo looked at is one place earlier.
        var origins: [Int?] = Array(2..<40).map { $0 }
        origins.insert(nil, at: 3)
        grid.applyChange(origins: origins, sections: [])
        let now = looked - 1
        #expect(grid.photoCount == 39)
        #expect(grid.cell(at: now).image === picture, "the cell keeps its picture")
        settle()
        // One place earlier in a flowing grid: a column to the left (here to the end of the row above's
        // place), its height on screen kept.
        #expect(abs(onScreen(now).minY - frame.minY) < 1, "the photo looked at stays at its height: \(onScreen(now)) vs \(frame)")
    }

    @Test func aNewCellGrowsInAndARemovedOneShrinksAway() throws {
        let (looked, _) = firstInView()
        let leaving = grid.cell(at: looked + 1)
        var origins: [Int?] = Array(0..<40).map { $0 }
        origins.remove(at: looked + 1)
        origins.insert(nil, at: looked + 2)
        grid.applyChange(origins: origins, sections: [])
        let new = grid.cell(at: looked + 2)
        #expect(new.transform.a < 0.5 && new.alpha == 0, "a new cell starts small and clear")
        #expect(leaving.name.hasSuffix(".leaving") && leaving.parent != nil)
        clock.advanceFrame()
        animator.tick()
        #expect(new.transform.a > 0.2 && leaving.transform.a < 1, "both on their way")
        settle()
        #expect(new.transform == .identity && new.alpha == 1)
        #expect(leaving.parent == nil, "the removed cell is gone once shrunk")
        #expect(grid.cell(at: looked + 1).name == "cell.\(looked + 1)", "the cells are named by their new places")
    }

    @Test func aGridAtItsNewestStaysThereShowingTheNewPhotos() {
        let timeline = GridScreen(photoCount: 40, size: Size(width: 400, height: 300), animator: animator,
                                  sections: [GridSection(start: 0, title: "Yesterday"), GridSection(start: 30, title: "Today")])
        timeline.showNewest()
        let origins: [Int?] = Array(0..<40).map { $0 } + [nil, nil, nil, nil, nil]
        timeline.applyChange(origins: origins, sections: [GridSection(start: 0, title: "Yesterday"), GridSection(start: 30, title: "Today")])
        #expect(timeline.scrollOffset == timeline.scrolling.range.upperBound)
        #expect(timeline.indices(withinScreens: 0).contains(44), "the newest photo is in view")
        #expect(timeline.root.descendant(named: "titleBar.count")?.text?.string == "45 photos")
    }

    @Test func theLastPhotoGoneShowsTheEmptyState() {
        grid.applyChange(origins: [], sections: [])
        settle()
        #expect(grid.photoCount == 0)
        #expect(grid.root.descendant(named: "emptyState") != nil)
    }
}
