import Geometry
import Scrolling

/// The grid's columns on their way from one count to another (a pinch, Ctrl+wheel, Ctrl+`+`/`-`):
/// a fractional count between two layouts, drawn as each cell's frame part-way between its frames
/// in the two, with one photo held where the fingers are. (`GridScreen+Columns` drives it.)
final class ColumnChange {
    /// The count shown: 4.3 is 30 % of the way from 4 columns to 5. Animated by a spring once the
    /// fingers let go; `onChange` draws each value.
    var columns: Double { didSet { onChange() } }
    /// Where the pinch began, as a count: the fingers' scale divides it.
    let startColumns: Double
    /// The count the spring goes to.
    var target: Int
    /// The target is the width's own count (`0`): once there, resizes choose the count again.
    var isNatural = false
    /// The photo held under the fingers, and how far down its cell they hold it (0 top … 1 bottom).
    let anchor: Int
    let anchorDepth: Double
    /// The window point the anchor's photo is held at.
    var point: Point
    /// The cells shown on the last frame (the others are hidden while the columns change).
    var shown: Range<Int> = 0..<0
    var onChange: () -> Void = {}

    init(columns: Int, anchor: Int, anchorDepth: Double, point: Point) {
        self.columns = Double(columns)
        startColumns = Double(columns)
        target = columns
        self.anchor = anchor
        self.anchorDepth = anchorDepth
        self.point = point
    }

    /// The fingers spread to `scale` times their first distance apart, their centre at `point`: the count follows
    /// (spread: fewer, larger photos), resisting past either end of `range`.
    func follow(scale: Double, at point: Point, within range: ClosedRange<Int>) {
        let wanted = startColumns / scale
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        self.point = point
        columns = wanted < low ? low - RubberBand.offset(forOvershoot: low - wanted, dimension: 1)
            : wanted > high ? high + RubberBand.offset(forOvershoot: wanted - high, dimension: 1) : wanted
    }

    /// The scroll offset (within `layout`'s content) that puts the anchor's photo at the held point, in a view
    /// `viewportHeight` high.
    func heldOffset(in layout: GridLayout, viewportHeight: Double) -> Double {
        let cell = layout.cellFrame(at: anchor)
        let offset = cell.minY + anchorDepth * cell.height - point.y
        return min(max(offset, 0), layout.maxScrollOffset(viewportHeight: viewportHeight))
    }

    /// The two whole counts the shown one lies between, and how far it is from the first.
    var between: (lower: Int, upper: Int, progress: Double) {
        let lower = Int(columns.rounded(.down))
        return (lower, lower + 1, columns - Double(lower))
    }
}
