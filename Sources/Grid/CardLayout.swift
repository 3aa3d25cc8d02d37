import Geometry

/// How the Library tab shows a timeline, as iOS's Photos does: a card a year, a month or a day, or every photo.
public enum LibraryView: Int, CaseIterable, Sendable {
    case years, months, days, all

    /// As the segmented control says it.
    public var title: String { ["Years", "Months", "Days", "All Photos"][rawValue] }
    /// The view a card's tap opens: a year's months, a month's days, a day's photos (nil: from All Photos a tap
    /// opens the photo).
    public var finer: LibraryView? { LibraryView(rawValue: rawValue + 1) }
    /// The view Back returns to (nil: Years is the coarsest).
    public var coarser: LibraryView? { rawValue > 0 ? LibraryView(rawValue: rawValue - 1) : nil }
    /// The most photos one of its cards shows.
    public var photosPerCard: Int { [1, 3, 6, 1][rawValue] }
    /// The widest its cards grow before another card fits beside them, px.
    var cardWidth: Double { [560, 420, 360, 0][rawValue] }
}

/// The cards of the Years, Months and Days views: each card a 3:2 mosaic of up to six photos, its first photo the
/// largest (`CardTiles.mosaics`), the cards in rows under their sections' headers. A cell of the grid is a tile.
public struct CardTiles: Equatable, Sendable {
    /// Each tile, from the grid's top inset.
    let frames: [Rect]
    /// Each card, from the top inset, row by row.
    public let cardFrames: [Rect]
    /// Each card's first tile.
    let cardStarts: [Int]
    /// Rows of cards.
    let rowCount: Int

    /// Space around the cards and between them, px (the tiles of a card are `GridLayout.spacing` apart).
    public static let margin = 12.0
    /// A card's height for its width.
    static let aspect = 2.0 / 3

    /// Each count's mosaic on a card of three columns and two rows: each tile's column, row, width and height.
    static let mosaics: [[(Int, Int, Int, Int)]] = [
        [(0, 0, 3, 2)],
        [(0, 0, 2, 2), (2, 0, 1, 2)],
        [(0, 0, 2, 2), (2, 0, 1, 1), (2, 1, 1, 1)],
        [(0, 0, 2, 1), (2, 0, 1, 1), (0, 1, 1, 1), (1, 1, 2, 1)],
        [(0, 0, 2, 1), (2, 0, 1, 1), (0, 1, 1, 1), (1, 1, 1, 1), (2, 1, 1, 1)],
        [(0, 0, 1, 1), (1, 0, 1, 1), (2, 0, 1, 1), (0, 1, 1, 1), (1, 1, 1, 1), (2, 1, 1, 1)],
    ]

    /// The tiles of the cards that meet the band [top, bottom) (from the top inset).
    func indices(from top: Double, to bottom: Double) -> Range<Int> {
        let first = firstCard { $0.maxY > top }, end = firstCard { $0.minY >= bottom }
        return tileStart(first)..<max(tileStart(first), tileStart(end))
    }

    /// The card tile `index` belongs to.
    public func card(of index: Int) -> Int { cardStarts.lastIndex { $0 <= index } }

    /// Card `k`'s tiles.
    public func tiles(ofCard k: Int) -> Range<Int> { tileStart(k)..<tileStart(k + 1) }

    /// The tile a row of cards up (`rows` -1) or down (+1) from `index`: the nearest across in the next row of
    /// tiles; nil past the first or last.
    func tile(from index: Int, rows: Int) -> Int? {
        let here = frames[index], k = card(of: index)
        // Cards are at most a dozen a row: the next row's tiles are within two rows' cards.
        let nearby = tileStart(max(0, k - 24))..<tileStart(min(cardStarts.count, k + 25))
        let beyond = nearby.filter { rows > 0 ? frames[$0].minY >= here.maxY : frames[$0].maxY <= here.minY }
        guard let edge = rows > 0 ? beyond.map({ frames[$0].minY }).min() : beyond.map({ frames[$0].maxY }).max() else { return nil }
        let row = beyond.filter { (rows > 0 ? frames[$0].minY : frames[$0].maxY) == edge }
        return row.min { abs(frames[$0].midX - here.midX) < abs(frames[$1].midX - here.midX) }
    }

    private func tileStart(_ card: Int) -> Int { card < cardStarts.count ? cardStarts[card] : frames.count }

    /// The first card for which `isPast` holds (it holds for every card after it), or the count.
    private func firstCard(_ isPast: (Rect) -> Bool) -> Int {
        var lo = 0, hi = cardFrames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isPast(cardFrames[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

extension GridLayout {
    /// `view`'s cards for a window `width` wide: `sections[k]` holds, for each card of section k, how many photos it
    /// shows (1 to `view.photosPerCard`); each section's header is `headerHeight` tall (0: none). As many cards a
    /// row as keep them at most `view.cardWidth` wide.
    public static func cards(_ view: LibraryView, width: Double, sections: [[Int]], headerHeight: Double,
                             topInset: Double, bottomInset: Double) -> GridLayout {
        let m = CardTiles.margin, s = GridLayout.spacing
        let perRow = max(1, Int(((width - m) / (view.cardWidth + m)).rounded(.up)))
        let cardW = max(30, ((width - m * Double(perRow + 1)) / Double(perRow)).rounded(.down))
        let cardH = (cardW * CardTiles.aspect).rounded()
        func edge(_ i: Int, of length: Double, parts: Double) -> Double { (Double(i) * (length + s) / parts).rounded() }
        var (frames, cards, cardStarts, starts, tops) = ([Rect](), [Rect](), [Int](), [Int](), [Double]())
        var y = 0.0, rows = 0
        for counts in sections {
            starts.append(frames.count)
            tops.append(y)
            y += headerHeight == 0 ? m : headerHeight
            for (j, n) in counts.enumerated() {
                let card = Rect(x: m + Double(j % perRow) * (cardW + m), y: y + Double(j / perRow) * (cardH + m), width: cardW, height: cardH)
                cards.append(card)
                cardStarts.append(frames.count)
                for (c, r, w, h) in CardTiles.mosaics[min(max(n, 1), CardTiles.mosaics.count) - 1] {
                    let x0 = edge(c, of: cardW, parts: 3), y0 = edge(r, of: cardH, parts: 2)
                    frames.append(Rect(x: card.minX + x0, y: card.minY + y0,
                                       width: edge(c + w, of: cardW, parts: 3) - s - x0, height: edge(r + h, of: cardH, parts: 2) - s - y0))
                }
            }
            let sectionRows = (counts.count + perRow - 1) / perRow
            rows += sectionRows
            y += Double(sectionRows) * (cardH + m)
        }
        tops.append(y)
        let tiles = CardTiles(frames: frames, cardFrames: cards, cardStarts: cardStarts, rowCount: rows)
        return GridLayout(width: width, tiles: tiles, sectionStarts: starts, sectionTops: tops, headerHeight: headerHeight,
                          topInset: topInset, bottomInset: bottomInset, columns: perRow)
    }
}
