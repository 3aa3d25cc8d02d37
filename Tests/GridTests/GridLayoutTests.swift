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
}
