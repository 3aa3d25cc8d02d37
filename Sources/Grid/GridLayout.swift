import Geometry

/// Where the thumbnails go: a pure function of the window width and the photos' sections, with no
/// scene or UI in it. Cells are square; a narrow window has 4 columns and a wider one as many as
/// keep cells at most `maxCell` px; cell edges fall on whole pixels. A section (a day of a timeline)
/// starts on a row of its own under its header; a list without sections is one run of rows.
public struct GridLayout: Equatable, Sendable {
    /// Gap between cells, px.
    public static let spacing = 2.0
    /// Largest cell side before another column is added, px.
    public static let maxCell = 180.0
    public static let minColumns = 4
    /// The columns a pinch may choose between: cells up to 400 px wide (3 columns on a phone) and down
    /// to 80 px (9 on a phone; more on a wide window).
    public static func columnRange(forWidth width: Double) -> ClosedRange<Int> {
        let w = max(width, 0)
        return max(3, Int((w / 400).rounded(.up)))...max(9, Int(w / 80))
    }

    public let width: Double
    public let count: Int
    /// Space kept free above the first row and below the last one (the bars), px.
    public let topInset: Double
    public let bottomInset: Double
    public let columns: Int
    /// Distance from one column (or row) start to the next, px (fractional).
    public let pitch: Double
    /// Height of a section's header, px (whole; 0 when the photos have no sections).
    public let headerHeight: Double
    /// The first photo of each section, ascending from 0 (none when there are no photos).
    public let sectionStarts: [Int]
    /// Each section's top (its header's), from the top inset, px; one more entry: where a section
    /// after the last would start.
    private let sectionTops: [Double]
    /// Cells of unequal sizes (the Years, Months and Days cards' mosaics, `GridLayout.cards`); nil: cells on the
    /// column grid.
    let tiles: CardTiles?

    /// One run of rows, without headers.
    public init(width: Double, count: Int, topInset: Double, bottomInset: Double) {
        self.init(width: width, count: count, sectionStarts: [0], headerHeight: 0, topInset: topInset,
                  bottomInset: bottomInset)
    }

    /// `sectionStarts`: the first photo of each section (0 first, ascending); each is headed by
    /// `headerHeight` px. `columns`: the count chosen by a pinch (kept within `columnRange`); nil: as
    /// the width gives.
    public init(width: Double, count: Int, sectionStarts: [Int], headerHeight: Double, topInset: Double,
                bottomInset: Double, columns chosen: Int? = nil) {
        let s = GridLayout.spacing
        let range = GridLayout.columnRange(forWidth: width)
        let columns = chosen.map { min(max($0, range.lowerBound), range.upperBound) }
            ?? max(GridLayout.minColumns, Int(((max(width, 0) + s) / (GridLayout.maxCell + s)).rounded(.up)))
        self.init(width: width, count: count, sectionStarts: sectionStarts, headerHeight: headerHeight, topInset: topInset,
                  bottomInset: bottomInset, exactly: columns)
    }

    /// Albums' covers: larger than photos (two columns on a phone, a column more every `coverCell` px).
    public static func covers(width: Double, count: Int, topInset: Double, bottomInset: Double) -> GridLayout {
        GridLayout(width: width, count: count, sectionStarts: [0], headerHeight: 0, topInset: topInset, bottomInset: bottomInset,
                   exactly: max(2, Int(((max(width, 0) + spacing) / (coverCell + spacing)).rounded(.up))))
    }

    /// Largest cover side before another column is added, px.
    public static let coverCell = 240.0

    private init(width: Double, count: Int, sectionStarts: [Int], headerHeight: Double, topInset: Double,
                 bottomInset: Double, exactly columns: Int) {
        self.width = width
        self.count = count
        self.topInset = topInset
        self.bottomInset = bottomInset
        self.headerHeight = headerHeight.rounded()
        self.columns = columns
        let s = GridLayout.spacing
        pitch = (max(width, 0) + s) / Double(columns)
        let starts = count == 0 ? [] : [0] + sectionStarts.filter { $0 > 0 && $0 < count }
        self.sectionStarts = starts
        var tops = [0.0]
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : count
            let rows = (end - start + columns - 1) / columns
            tops.append(tops[k] + self.headerHeight + (Double(rows) * pitch).rounded())
        }
        sectionTops = tops
        tiles = nil
    }

    /// Cards of mosaic tiles: `tiles` from the top inset, each section `headerHeight` above its first card row.
    init(width: Double, tiles: CardTiles, sectionStarts: [Int], sectionTops: [Double], headerHeight: Double,
         topInset: Double, bottomInset: Double, columns: Int) {
        (self.width, count, self.topInset, self.bottomInset) = (width, tiles.frames.count, topInset, bottomInset)
        (self.headerHeight, self.columns, self.sectionStarts, self.sectionTops) = (headerHeight, columns, sectionStarts, sectionTops)
        self.tiles = tiles
        pitch = tiles.frames.reduce(0) { max($0, $1.width, $1.height) } + GridLayout.spacing
    }

    /// The same photos and sections with `columns` columns (cards keep theirs).
    public func with(columns: Int?) -> GridLayout {
        guard tiles == nil else { return self }
        return GridLayout(width: width, count: count, sectionStarts: sectionStarts, headerHeight: headerHeight,
                   topInset: topInset, bottomInset: bottomInset, columns: columns)
    }

    public var rows: Int {
        if let tiles { return tiles.rowCount }
        return sectionStarts.indices.reduce(0) { $0 + (photos(inSection: $1).count + columns - 1) / columns }
    }

    public var sectionCount: Int { sectionStarts.count }

    /// The photos of section `k`.
    public func photos(inSection k: Int) -> Range<Int> {
        sectionStarts[k]..<(k + 1 < sectionStarts.count ? sectionStarts[k + 1] : count)
    }

    /// The section photo `index` is in.
    public func section(of index: Int) -> Int {
        lastIndex(in: sectionStarts) { $0 <= index }
    }

    /// The section whose band (header and rows) holds content y `y`: the first before its top.
    public func section(atContentY y: Double) -> Int {
        guard !sectionStarts.isEmpty else { return 0 }
        return min(sectionStarts.count - 1, lastIndex(in: sectionTops) { $0 <= y - topInset })
    }

    /// The cell of photo `index`, in content coordinates (scroll offset 0).
    public func cellFrame(at index: Int) -> Rect {
        if let tiles {
            let f = tiles.frames[index]
            return Rect(x: f.minX, y: f.minY + topInset, width: f.width, height: f.height)
        }
        let k = section(of: index), local = index - sectionStarts[k]
        let row = local / columns, column = local % columns
        let base = topInset + sectionTops[k] + headerHeight
        let x0 = (Double(column) * pitch).rounded(), x1 = (Double(column + 1) * pitch).rounded() - GridLayout.spacing
        let y0 = (Double(row) * pitch).rounded(), y1 = (Double(row + 1) * pitch).rounded() - GridLayout.spacing
        return Rect(x: x0, y: base + y0, width: x1 - x0, height: y1 - y0)
    }

    /// Section `k`'s header where it lies in the content (scroll offset 0).
    public func headerFrame(ofSection k: Int) -> Rect {
        Rect(x: 0, y: topInset + sectionTops[k], width: width, height: headerHeight)
    }

    /// Section `k`'s header for scroll offset `offset`: where it lies, or, while its section passes
    /// under the top bar, held just below the bar until the next header pushes it up (a table's
    /// plain-style headers).
    public func pinnedHeaderFrame(ofSection k: Int, scrollOffset offset: Double) -> Rect {
        let natural = headerFrame(ofSection: k)
        let pushedUp = topInset + sectionTops[k + 1] - headerHeight
        return Rect(x: 0, y: min(max(natural.minY, offset + topInset), max(natural.minY, pushedUp)),
                    width: width, height: headerHeight)
    }

    /// Height of everything that scrolls, bars' insets included.
    public var contentHeight: Double {
        topInset + max(0, sectionTops[sectionTops.count - 1] - GridLayout.spacing) + bottomInset
    }

    /// The largest scroll offset for a viewport `height` px tall.
    public func maxScrollOffset(viewportHeight height: Double) -> Double {
        max(0, contentHeight - height)
    }

    /// Indices of the cells that intersect the content-space band [top, bottom) (with, at most, a row
    /// either side).
    public func indices(inContentRangeFrom top: Double, to bottom: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        if let tiles { return tiles.indices(from: top - topInset, to: bottom - topInset) }
        let first = section(atContentY: top), last = section(atContentY: bottom)
        let lo = photo(inSection: first, atRowCovering: top - topInset, roundingDown: true)
        let hi = photo(inSection: last, atRowCovering: bottom - topInset, roundingDown: false)
        return lo..<max(lo, hi)
    }

    /// The photo beginning the row of section `k` at `y` (from the top inset): rounding down, the row
    /// `y` is in; up, the row after it. Clamped to the section's photos.
    private func photo(inSection k: Int, atRowCovering y: Double, roundingDown: Bool) -> Int {
        let rows = (y - sectionTops[k] - headerHeight) / pitch
        let row = max(0, Int(rows.rounded(roundingDown ? .down : .up)))
        let photos = photos(inSection: k)
        return min(photos.upperBound, photos.lowerBound + row * columns)
    }

    /// The photo a row up (`rows` -1) or down (+1) from `index`, across sections: the same column, or
    /// the last photo of a shorter row; nil past the first or last row.
    public func photo(from index: Int, rows: Int) -> Int? {
        if let tiles { return tiles.tile(from: index, rows: rows) }
        let k = section(of: index), photos = photos(inSection: k)
        let column = (index - photos.lowerBound) % columns
        let target = index + rows * columns
        if photos.contains(target) { return target }
        if rows > 0, (target - photos.lowerBound) / columns == (photos.upperBound - 1 - photos.lowerBound) / columns {
            return photos.upperBound - 1
        }
        let next = k + (rows > 0 ? 1 : -1)
        guard sectionStarts.indices.contains(next) else { return nil }
        let nextPhotos = self.photos(inSection: next)
        let row = rows > 0 ? 0 : (nextPhotos.count - 1) / columns
        return min(nextPhotos.upperBound - 1, nextPhotos.lowerBound + row * columns + column)
    }

    private func lastIndex<T>(in values: [T], where isBefore: (T) -> Bool) -> Int { values.lastIndex(ascending: isBefore) }
}

extension Array {
    /// The last index for which `isBefore` holds, the elements ascending by it (it holds for a first run of them); 0 if
    /// none: the section a photo is in, the card a tile is in.
    public func lastIndex(ascending isBefore: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isBefore(self[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return Swift.max(0, lo - 1)
    }
}

extension GridLayout {
    /// The scroll offset nearest `offset` at which cell `index` is wholly between the bars and below a pinned header, in
    /// a view `viewportHeight` high.
    func offset(revealing index: Int, from offset: Double, viewportHeight: Double) -> Double {
        let cell = cellFrame(at: index), clear = topInset + headerHeight
        if cell.minY < offset + clear { return cell.minY - clear }
        if cell.maxY > offset + viewportHeight - bottomInset { return cell.maxY - viewportHeight + bottomInset }
        return offset
    }

    /// The scroll offset at which cell `index` is centred between the bars (the scroll keeps it within the content).
    func offset(centring index: Int, viewportHeight: Double) -> Double {
        cellFrame(at: index).midY - topInset - (viewportHeight - topInset - bottomInset) / 2
    }

    /// The photo at `point` (window coordinates, the content scrolled to `scrollOffset` in a view `viewportHeight`
    /// high), or the nearest one in view; and how far down its cell the point is (0 top … 1 bottom).
    func photo(nearest point: Point, scrollOffset: Double, viewportHeight: Double) -> (index: Int, depth: Double) {
        let y = min(max(point.y, topInset), viewportHeight - bottomInset)
        let contentY = y + scrollOffset
        let row = indices(inContentRangeFrom: contentY, to: contentY + 1)
        let index = row.min { abs(cellFrame(at: $0).midX - point.x) < abs(cellFrame(at: $1).midX - point.x) }
            ?? indices(inContentRangeFrom: scrollOffset, to: scrollOffset + viewportHeight).first ?? 0
        let cell = cellFrame(at: index)
        return (index, min(max((contentY - cell.minY) / max(cell.height, 1), 0), 1))
    }
}
