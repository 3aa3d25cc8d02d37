import Geometry
import Testing
@testable import Grid

/// The Years, Months and Days cards' layout: mosaics that fill their cards, cards in rows under their headers, and
/// the tiles the grid asks for in a band.
@Suite struct CardLayoutTests {
    static func layout(_ view: LibraryView, width: Double = 1280, sections: [[Int]], header: Double = 40) -> GridLayout {
        .cards(view, width: width, sections: sections, headerHeight: header, topInset: 56, bottomInset: 104)
    }

    /// Every count's mosaic: its tiles inside the card, none over another, the first the largest, and together the
    /// whole card but for the gaps between them.
    @Test(arguments: 1...6) func aMosaicFillsItsCard(count: Int) throws {
        let layout = Self.layout(.days, sections: [[count]], header: 0)
        let tiles = try #require(layout.tiles)
        let card = tiles.cardFrames[0]
        let frames = (0..<count).map { tiles.frames[$0] }
        #expect(frames.count == layout.count)
        for (i, f) in frames.enumerated() {
            #expect(f.minX >= card.minX && f.maxX <= card.maxX && f.minY >= card.minY && f.maxY <= card.maxY, "tile \(i) \(f) in \(card)")
            for g in frames[(i + 1)...] { #expect(f.intersection(g).map { $0.width * $0.height } ?? 0 < 0.01, "\(f) and \(g) overlap") }
        }
        let area = frames.reduce(0) { $0 + $1.width * $1.height }
        #expect(area > card.width * card.height * 0.97, "the tiles fill the card: \(area) of \(card.width * card.height)")
        #expect(frames.allSatisfy { $0.width * $0.height <= frames[0].width * frames[0].height * 1.03 }, "the key photo's tile is the largest (six are equal, to whole pixels)")
        #expect(abs(card.height - (card.width * 2 / 3).rounded()) < 0.5, "a card is 3:2")
    }

    /// As many cards a row as keep them at most their view's width: three years, or one on a phone.
    @Test func cardsPerRowFollowTheWidth() {
        #expect(Self.layout(.years, sections: [[1, 1, 1, 1]]).columns == 3)
        #expect(Self.layout(.years, width: 390, sections: [[1, 1, 1, 1]]).columns == 1)
        #expect(Self.layout(.days, sections: [[6]]).columns == 4)
        let months = Self.layout(.months, sections: [[3, 3, 3, 3, 3]])
        let cards = months.tiles!.cardFrames
        #expect(cards[3].minY > cards[2].maxY && cards[3].minX == cards[0].minX, "the fourth month starts the next row")
        #expect(abs(cards[2].maxX - (1280 - CardTiles.margin)) < 3, "the row ends a margin from the edge (to whole pixels)")
    }

    /// A section's cards start under its header, and the next section's header under its last row.
    @Test func sectionsStartUnderTheirHeaders() {
        let layout = Self.layout(.months, sections: [[3, 2, 1, 3], [1]])
        let second = layout.headerFrame(ofSection: 1)
        #expect(layout.headerFrame(ofSection: 0).minY == 56)
        #expect(layout.cellFrame(at: 0).minY == 56 + 40, "the first card right under the first header")
        let lastOfFirst = layout.photos(inSection: 0).map { layout.cellFrame(at: $0).maxY }.max()!
        #expect(second.minY > lastOfFirst && layout.cellFrame(at: layout.photos(inSection: 1).lowerBound).minY == second.maxY)
        #expect(layout.section(of: layout.count - 1) == 1)
    }

    /// The tiles the grid asks for in a band are every tile that meets it.
    @Test func aBandHoldsEveryTileThatMeetsIt() {
        let layout = Self.layout(.days, sections: (0..<30).map { k in (0..<(k % 7 + 1)).map { 1 + ($0 + k) % 6 } })
        for top in stride(from: 0.0, to: layout.contentHeight, by: 97) {
            let band = layout.indices(inContentRangeFrom: top, to: top + 800)
            let meeting = (0..<layout.count).filter { layout.cellFrame(at: $0).maxY > top && layout.cellFrame(at: $0).minY < top + 800 }
            #expect(meeting.allSatisfy(band.contains), "band at \(top): \(band) misses some of \(meeting)")
            #expect(band.count <= meeting.count + 12, "and not much more")
        }
    }

    /// Down from a tile goes to the nearest tile of the next row of tiles; up from the first row, nowhere.
    @Test func upAndDownMoveByRowsOfTiles() {
        let layout = Self.layout(.months, sections: [[3, 3, 3, 3]])
        // Card 0: a large tile (0) and two small ones (1 above 2); card 3 is below card 0.
        #expect(layout.photo(from: 1, rows: 1) == 2, "the small tile below")
        #expect(layout.photo(from: 0, rows: 1) == 9, "below the large tile: the next card row's")
        #expect(layout.photo(from: 0, rows: -1) == nil)
    }
}
