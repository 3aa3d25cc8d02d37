import Geometry
import Grid
import Testing

@Suite struct GridLayoutTests {
    func layout(_ width: Double, _ count: Int = 30) -> GridLayout {
        GridLayout(width: width, count: count, topInset: 56, bottomInset: 56)
    }

    @Test func narrowWindowHasFourColumns() {
        for width in [320.0, 400, 600, 700] { #expect(layout(width).columns == 4, "width \(width)") }
    }

    @Test func widerWindowsGetMoreColumnsWithCellsOf100To180() {
        var last = 4
        for width in stride(from: 420.0, through: 3840, by: 20) {
            let l = layout(width)
            #expect(l.columns >= last)
            last = l.columns
            let side = l.cellFrame(at: 0).width
            #expect(side <= GridLayout.maxCell, "width \(width): cell \(side)")
            #expect(side >= 100, "width \(width): cell \(side)")
        }
        #expect(layout(1280).columns == 8)
        #expect(layout(1920).columns == 11)
    }

    @Test func cellsAreSquareTileTheWidthAndDoNotOverlap() {
        let l = layout(1000, 23)
        for i in 0..<23 {
            let cell = l.cellFrame(at: i)
            #expect(abs(cell.width - cell.height) <= 1, "cell \(i) \(cell)")
            #expect(cell.minX >= 0 && cell.maxX <= 1000)
            #expect(cell.minX == cell.minX.rounded() && cell.maxY == cell.maxY.rounded(), "whole pixels")
            for j in 0..<i { #expect(!cell.intersects(l.cellFrame(at: j)), "\(i) overlaps \(j)") }
        }
        #expect(l.cellFrame(at: l.columns - 1).maxX == 1000)
        #expect(l.cellFrame(at: 0).minY == 56)
    }

    @Test func contentHeightAndScrollRange() {
        let l = layout(400, 10)   // 4 columns, 3 rows, pitch (400 + 2) / 4 = 100.5
        #expect(l.rows == 3)
        #expect(l.cellFrame(at: 9).maxY == 56 + 300)      // last row ends at round(3 × 100.5) − 2
        #expect(l.contentHeight == 56 + 300 + 56)
        #expect(l.maxScrollOffset(viewportHeight: 800) == 0)
        #expect(l.maxScrollOffset(viewportHeight: 300) == l.contentHeight - 300)
    }

    @Test func visibleIndicesCoverTheViewport() {
        let l = layout(400, 40)
        let visible = l.indices(inContentRangeFrom: 200, to: 500)
        for i in 0..<40 {
            let cell = l.cellFrame(at: i)
            let onScreen = cell.maxY > 200 && cell.minY < 500
            if onScreen { #expect(visible.contains(i), "cell \(i) is on screen") }
        }
    }

    /// Three days of 6, 1 and 9 photos at 400 px (4 columns, pitch 100.5) under 40 px headers.
    func days() -> GridLayout {
        GridLayout(width: 400, count: 16, sectionStarts: [0, 6, 7], headerHeight: 40, topInset: 56, bottomInset: 56)
    }

    @Test func withoutHeadersOneSectionIsTheRunOfRows() {
        let plain = layout(400, 10)
        let one = GridLayout(width: 400, count: 10, sectionStarts: [0], headerHeight: 0, topInset: 56, bottomInset: 56)
        #expect(one == plain)
        #expect((0..<10).allSatisfy { one.cellFrame(at: $0) == plain.cellFrame(at: $0) })
    }

    @Test func eachSectionStartsARowOfItsOwnUnderItsHeader() {
        let l = days()
        #expect(l.sectionCount == 3 && l.rows == 2 + 1 + 3)
        #expect(l.headerFrame(ofSection: 0) == Rect(x: 0, y: 56, width: 400, height: 40))
        #expect(l.cellFrame(at: 0).minY == 96 && l.cellFrame(at: 0).minX == 0)
        #expect(l.cellFrame(at: 5).minY == 96 + 101 && l.cellFrame(at: 5).minX == l.cellFrame(at: 1).minX)
        // Day 2 starts after day 1's two rows (201 px, the gap under them included), in the first column.
        #expect(l.headerFrame(ofSection: 1).minY == 96 + 201)
        #expect(l.cellFrame(at: 6) == Rect(x: 0, y: 96 + 201 + 40, width: 99, height: 99))
        #expect(l.headerFrame(ofSection: 2).minY == l.cellFrame(at: 6).maxY + 2)
        #expect(l.cellFrame(at: 15).maxY == l.contentHeight - 56)
        for i in 0..<16 {
            let k = l.section(of: i)
            #expect(l.photos(inSection: k).contains(i))
            #expect(!l.cellFrame(at: i).intersects(l.headerFrame(ofSection: k)), "photo \(i) under its header")
        }
    }

    @Test func visibleIndicesCoverTheViewportAcrossSections() {
        let l = days()
        for top in stride(from: 0.0, through: l.contentHeight, by: 17) {
            let visible = l.indices(inContentRangeFrom: top, to: top + 150)
            for i in 0..<16 {
                let cell = l.cellFrame(at: i)
                if cell.maxY > top && cell.minY < top + 150 { #expect(visible.contains(i), "cell \(i) at \(top)") }
            }
        }
    }

    /// A section's header lies where it starts, is held under the top bar while its rows pass under the
    /// bar, and is pushed up by the next header.
    @Test func theHeaderOfTheDayUnderTheBarIsPinnedUntilTheNextPushesIt() {
        let l = days()
        #expect(l.pinnedHeaderFrame(ofSection: 0, scrollOffset: 0).minY == 56)
        #expect(l.pinnedHeaderFrame(ofSection: 0, scrollOffset: -30).minY == 56, "pulled down past the top: it moves with the rows")
        let offset = 100.0   // day 1's rows under the bar
        #expect(l.section(atContentY: offset + 56) == 0)
        #expect(l.pinnedHeaderFrame(ofSection: 0, scrollOffset: offset).minY == offset + 56, "held under the bar")
        // Day 2's header lies at 297: from offset 201 on it meets the held one and pushes it up.
        let pushed = l.pinnedHeaderFrame(ofSection: 0, scrollOffset: 220)
        #expect(pushed.maxY == l.headerFrame(ofSection: 1).minY, "pushed up by the next header")
        #expect(l.section(atContentY: 300 + 56) == 1)
        #expect(l.pinnedHeaderFrame(ofSection: 1, scrollOffset: 300).minY == 356)
    }

    @Test func upAndDownKeepTheColumnAcrossDays() {
        let l = days()
        #expect(l.photo(from: 1, rows: 1) == 5)
        #expect(l.photo(from: 2, rows: 1) == 5, "the shorter row below: its last photo")
        #expect(l.photo(from: 5, rows: 1) == 6, "the next day's only photo")
        #expect(l.photo(from: 6, rows: 1) == 7)
        #expect(l.photo(from: 9, rows: -1) == 6)
        #expect(l.photo(from: 6, rows: -1) == 4, "the day before's last row, same column")
        #expect(l.photo(from: 15, rows: 1) == nil && l.photo(from: 2, rows: -1) == nil)
    }
}
