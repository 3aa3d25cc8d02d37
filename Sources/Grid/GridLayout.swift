import Geometry

/// Where the thumbnails go: a pure function of the window width and the photo count, with no
/// scene or UI in it. Cells are square; a narrow window has 4 columns and a wider one as many as
/// keep cells at most `maxCell` px; cell edges fall on whole pixels.
public struct GridLayout: Equatable, Sendable {
    /// Gap between cells, px.
    public static let spacing = 2.0
    /// Largest cell side before another column is added, px.
    public static let maxCell = 180.0
    public static let minColumns = 4

    public let width: Double
    public let count: Int
    /// Space kept free above the first row and below the last one (the bars), px.
    public let topInset: Double
    public let bottomInset: Double
    public let columns: Int
    /// Distance from one column (or row) start to the next, px (fractional).
    public let pitch: Double

    public init(width: Double, count: Int, topInset: Double, bottomInset: Double) {
        self.width = width
        self.count = count
        self.topInset = topInset
        self.bottomInset = bottomInset
        let s = GridLayout.spacing
        columns = max(GridLayout.minColumns, Int(((max(width, 0) + s) / (GridLayout.maxCell + s)).rounded(.up)))
        pitch = (max(width, 0) + s) / Double(columns)
    }

    public var rows: Int { (count + columns - 1) / columns }

    /// The cell of photo `index`, in content coordinates (scroll offset 0).
    public func cellFrame(at index: Int) -> Rect {
        let row = index / columns, column = index % columns
        let x0 = (Double(column) * pitch).rounded(), x1 = (Double(column + 1) * pitch).rounded() - GridLayout.spacing
        let y0 = (Double(row) * pitch).rounded(), y1 = (Double(row + 1) * pitch).rounded() - GridLayout.spacing
        return Rect(x: x0, y: topInset + y0, width: x1 - x0, height: y1 - y0)
    }

    /// Height of everything that scrolls, bars' insets included.
    public var contentHeight: Double {
        topInset + max(0, (Double(rows) * pitch).rounded() - GridLayout.spacing) + bottomInset
    }

    /// The largest scroll offset for a viewport `height` px tall.
    public func maxScrollOffset(viewportHeight height: Double) -> Double {
        max(0, contentHeight - height)
    }

    /// Indices of the cells that intersect the content-space band [top, bottom).
    public func indices(inContentRangeFrom top: Double, to bottom: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let firstRow = max(0, Int(((top - topInset) / pitch).rounded(.down)))
        let lastRow = max(0, Int(((bottom - topInset) / pitch).rounded(.up)))
        let lo = min(count, firstRow * columns), hi = min(count, lastRow * columns)
        return lo..<max(lo, hi)
    }
}
