import Grid
import Library

/// The Years, Months and Days views of a timeline, from what the library knows of its photos (no file is opened):
/// a card a year, a month or a day, under sections (a year's months, a month's days). A card shows its key photo
/// first, then a few more in time order. The key photo of a year is the key photo of one of its months, and a
/// month's are keys of its days, so a photo tapped on a card is on a card of the finer view too.
struct LibraryCards {
    struct Card: Equatable {
        let title: String
        let detail: String
        /// The library's photos it covers.
        let photos: Range<Int>
        /// The photos its tiles show, the key photo first.
        let shown: [Int]
    }

    let view: LibraryView
    let cards: [Card]
    /// The headers, by section: each starts at a card (its `start` is the card's first tile).
    let sections: [GridSection]
    /// The cards of each section.
    let sectionCards: [Range<Int>]

    /// The library photo each tile shows, card by card.
    let tiles: [Int]
    /// Each card's first tile.
    let cardStarts: [Int]
    /// The cards by section: how many photos each shows (`GridContents.cards`).
    var contents: GridContents { .cards(view, sectionCards.map { cards[$0].map(\.shown.count) }) }

    /// `view` (Years, Months or Days) of `library`, a timeline (every photo dated, oldest first) whose days are `days`
    /// (`DayTitles.sections`) and whose clips are `clips`; `isFavorite` says which photos are favorites (they are keys
    /// first).
    init(_ view: LibraryView, of library: [Photo], days: [GridSection], clips: [Bool], titles: DayTitles, isFavorite: (Photo) -> Bool) {
        self.view = view
        let scores = library.indices.map { LibraryCards.score(library[$0], clip: clips[$0], favorite: isFavorite(library[$0])) }
        let calendar = { (i: Int) in PhotoDate.calendarDate(ofDay: library[i].date?.day ?? 0) }
        // The clips before each photo: a card's count is two lookups.
        let clipsBefore = clips.reduce(into: [0]) { $0.append($0[$0.count - 1] + ($1 ? 1 : 0)) }
        let count = { (photos: Range<Int>) in
            ItemCount.words(items: photos.count, clips: clipsBefore[photos.upperBound] - clipsBefore[photos.lowerBound])
        }
        let dayCards = days.indices.map { k in
            let photos = days[k].start..<(k + 1 < days.count ? days[k + 1].start : library.count)
            return Card(title: days[k].title, detail: count(photos), photos: photos, shown: LibraryCards.shown(photos, scores: scores))
        }
        var cards = dayCards
        var groups = LibraryCards.runs(of: dayCards) { calendar($0.photos.lowerBound).year * 12 + calendar($0.photos.lowerBound).month }
        var headers = groups.map { days[$0.lowerBound].month }
        if view != .days {
            let months = groups.map { LibraryCards.merged(dayCards[$0], keys: 3, scores: scores) {
                Card(title: titles.monthTitle(ofDay: library[$0.lowerBound].date?.day ?? 0), detail: count($0), photos: $0, shown: $1) } }
            (cards, groups) = (months, LibraryCards.runs(of: months) { calendar($0.photos.lowerBound).year })
            headers = groups.map { "\(calendar(months[$0.lowerBound].photos.lowerBound).year)" }
        }
        if view == .years {
            cards = groups.map { LibraryCards.merged(cards[$0], keys: 1, scores: scores) {
                Card(title: "\(calendar($0.lowerBound).year)", detail: count($0), photos: $0, shown: $1) } }
            (groups, headers) = ([cards.indices], [])
        }
        self.cards = cards
        sectionCards = groups
        var starts = [0]
        for card in cards { starts.append(starts[starts.count - 1] + card.shown.count) }
        (tiles, cardStarts) = (cards.flatMap(\.shown), Array(starts.dropLast()))
        sections = zip(groups, headers).map { group, title in
            GridSection(start: starts[group.lowerBound], title: title, month: title, year: calendar(cards[group.lowerBound].photos.lowerBound).year)
        }
    }

    /// How good a key photo `photo` makes: a favorite before any other, a still before a clip, then one well exposed
    /// (its mean colour, as the index keeps it, near a mid tone and not grey); one whose colour is not known yet is
    /// taken as middling.
    static func score(_ photo: Photo, clip: Bool, favorite: Bool) -> Double {
        let base = (favorite ? 4.0 : 0) - (clip ? 1 : 0)
        guard let rgb = photo.colour else { return base + 0.5 }
        let (r, g, b) = (Double(rgb >> 16 & 0xFF) / 255, Double(rgb >> 8 & 0xFF) / 255, Double(rgb & 0xFF) / 255)
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return base + 1 - abs(luma - 0.45) * 1.5 + (max(r, g, b) - min(r, g, b)) * 0.5
    }

    /// What a day's card shows of `photos`: the best first, then up to five more spread over the day, in time order.
    static func shown(_ photos: Range<Int>, scores: [Double]) -> [Int] {
        let key = photos.max { scores[$0] < scores[$1] } ?? photos.lowerBound
        return [key] + spread(photos.filter { $0 != key }, picking: LibraryView.days.photosPerCard - 1)
    }

    /// A card made of `cards` (a month of days, a year of months) by `make`, from the photos they cover and what it
    /// shows: the best of their keys, then up to `keys - 1` more of them spread over the cards, in time order.
    static func merged(_ cards: ArraySlice<Card>, keys: Int, scores: [Double], make: (Range<Int>, [Int]) -> Card) -> Card {
        let all = cards.map { $0.shown[0] }
        let key = all.max { scores[$0] < scores[$1] } ?? all[0]
        return make(cards.first!.photos.lowerBound..<cards.last!.photos.upperBound, [key] + spread(all.filter { $0 != key }, picking: keys - 1))
    }

    /// `count` of `items`, evenly spread (all when there are no more).
    static func spread(_ items: [Int], picking count: Int) -> [Int] {
        guard items.count > count else { return items }
        return (0..<count).map { items[($0 * 2 + 1) * items.count / (2 * count)] }
    }

    /// The runs of `cards` with the same `key` (a month's days, a year's months), as ranges of their indices.
    static func runs(of cards: [Card], key: (Card) -> Int) -> [Range<Int>] {
        var runs: [Range<Int>] = [], start = 0
        for i in cards.indices.dropFirst() where key(cards[i]) != key(cards[i - 1]) {
            runs.append(start..<i)
            start = i
        }
        return cards.isEmpty ? [] : runs + [start..<cards.count]
    }

    /// The card covering library photo `photo` (the nearest, for one between cards).
    func card(containing photo: Int) -> Int { cards.lastIndex { $0.photos.lowerBound <= photo } }

    /// The card tile `tile` belongs to.
    func card(ofTile tile: Int) -> Int { cardStarts.lastIndex { $0 <= tile } }

    /// The tiles of the card tile `tile` belongs to (itself among them).
    func tiles(ofCardHolding tile: Int) -> Range<Int> {
        let k = card(ofTile: tile)
        return cardStarts[k]..<(k + 1 < cardStarts.count ? cardStarts[k + 1] : tiles.count)
    }

    /// The tile showing library photo `photo`, if one does.
    func tile(showing photo: Int) -> Int? {
        let k = card(containing: photo)
        return cards.indices.contains(k) ? cards[k].shown.firstIndex(of: photo).map { cardStarts[k] + $0 } : nil
    }

    /// The tile showing library photo `photo`, or the first of the card that covers it.
    func tile(for photo: Int) -> Int { tile(showing: photo) ?? cardStarts[card(containing: photo)] }
}
