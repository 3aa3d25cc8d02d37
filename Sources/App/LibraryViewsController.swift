import Foundation
import Geometry
import Grid
import Library

/// The Library tab's views of a timeline (Years, Months, Days, All Photos): which one shows, its cards, and the
/// trail of views a tap came through, so that Back returns where it was. Every change is a zoom about the photo
/// chosen (`GridZoom`): a card's tap zooms into the finer view with the photo under the finger; Back, the picker
/// and `Ctrl+1` to `Ctrl+4` zoom too.
final class LibraryViewsController {
    /// The view shown.
    private(set) var shown = LibraryView.all
    /// Its cards (nil: All Photos).
    private(set) var cards: LibraryCards?
    /// The views a tap came through, coarsest first: each with where it was scrolled and the tile tapped.
    private var trail: [(view: LibraryView, offset: Double, tile: Int)] = []

    /// The library photo cell `cell` shows now.
    func photo(atCell cell: Int) -> Int { cards?.tiles[cell] ?? cell }

    /// Tile `index` of a card view chosen (tapped at `point`; Return: nil): the finer view zooms in about it.
    func open(tile index: Int, at point: Point?, in app: PhotoViewerApp) {
        guard let cards, let finer = shown.finer, cards.tiles.indices.contains(index) else { return }
        trail.append((shown, app.grid.scrollOffset, index))
        let next = makeCards(finer, in: app)
        let flying = Dictionary(uniqueKeysWithValues: cards.tiles(ofCardHolding: index).compactMap { tile in
            LibraryViewsController.cell(showing: cards.tiles[tile], in: next).map { (tile, $0) } })
        let from = frame(ofCell: index, in: app)
        let zoom = GridZoom(from: from, onto: next.map { $0.tile(for: cards.tiles[index]) } ?? cards.tiles[index],
                            finger: point ?? from.center, inward: true, flying: flying, crossFades: app.reducesMotion)
        present(finer, cards: next, zoom: zoom, in: app)
    }

    /// Back to the view the last tap came from, scrolled as it was, the photo tapped zooming back into its tile.
    func back(in app: PhotoViewerApp) {
        guard let (view, offset, tile) = trail.popLast() else { return }
        let coarse = makeCards(view, in: app)
        guard let coarse, coarse.tiles.indices.contains(tile) else { return present(view, cards: coarse, zoom: nil, in: app) }
        let photo = coarse.tiles[tile]
        let flying = Dictionary(coarse.tiles(ofCardHolding: tile).compactMap { new in LibraryViewsController.cell(showing: coarse.tiles[new], in: cards).map { ($0, new) } },
                                uniquingKeysWith: { first, _ in first })
        let here = LibraryViewsController.cell(showing: photo, in: cards) ?? cards?.tile(for: photo) ?? photo
        let from = frame(ofCell: here, in: app)
        let bounds = Rect(origin: .zero, size: app.size).insetBy(dx: 1, dy: app.grid.layout.topInset)
        let finger = Point(x: min(max(from.midX, bounds.minX), bounds.maxX), y: min(max(from.midY, bounds.minY), bounds.maxY))
        let zoom = GridZoom(from: from, onto: tile, finger: finger, inward: false, offset: offset, flying: flying, crossFades: app.reducesMotion)
        present(view, cards: coarse, zoom: zoom, in: app)
    }

    /// `view` chosen (the picker, `Ctrl+1` to `Ctrl+4`): it zooms in or out about the photo in the middle of the view.
    func choose(_ view: LibraryView, in app: PhotoViewerApp) {
        guard view != shown, app.grid.photoCount > 0 else { return }
        trail = []
        let middle = Point(x: app.size.width / 2, y: app.size.height / 2)
        let visible = app.grid.indices(withinScreens: 0)
        guard let anchor = app.grid.index(at: middle) ?? (visible.isEmpty ? nil : visible.lowerBound + visible.count / 2) else { return }
        let next = makeCards(view, in: app), photo = photo(atCell: anchor)
        let from = frame(ofCell: anchor, in: app)
        let zoom = GridZoom(from: from, onto: next.map { $0.tile(for: photo) } ?? photo, finger: from.center,
                            inward: view.rawValue > shown.rawValue, crossFades: app.reducesMotion)
        present(view, cards: next, zoom: zoom, in: app)
    }

    /// The view shown made again from the library as it is now, at once: scrolled as it was (its photos changed), or
    /// at its newest (the tab chosen again).
    func refresh(in app: PhotoViewerApp, keepingOffset: Bool) {
        let offset = app.grid.scrollOffset
        if !keepingOffset { (trail, made) = ([], [:]) }
        present(shown, cards: makeCards(shown, in: app), zoom: nil, in: app)
        if keepingOffset { app.grid.scrolling.setOffset(offset) }
    }

    /// Another tab is chosen: the trail is forgotten. Whether the grid must show photos again (it shows `cards`).
    func leaveTab(cards: Bool) -> Bool {
        defer { trail = [] }
        return cards || !trail.isEmpty
    }

    /// The library's photos changed: the cards are made anew from them.
    func libraryChanged() { (library, made) = (nil, [:]) }

    private func present(_ view: LibraryView, cards: LibraryCards?, zoom: GridZoom?, in app: PhotoViewerApp) {
        let started = ContinuousClock.now
        defer { app.logger.debug("\(view.title): \(cards?.cards.count ?? app.library.count) shown in \(started.millisecondsUntilNow) ms") }
        let pictures = zoom.map { $0.flying.keys.compactMap { old in app.grid.picture(at: old).map { (old, $0) } } } ?? []
        (shown, self.cards) = (view, cards)
        let photos = cards.map { $0.tiles.map { app.library[$0] } } ?? app.library
        app.replace(with: photos, contents: cards?.contents ?? .photos, sections: cards?.sections ?? library?.days,
                    clips: library?.clips.count { $0 }, push: zoom.map { .zoom($0) })
        for (k, card) in (cards?.cards ?? []).enumerated() { app.grid.setCardCaption(card.title, detail: card.detail, card: k) }
        for (old, picture) in pictures { if let new = zoom?.flying[old] { app.grid.setThumbnail(.loaded(picture), at: new) } }
        app.grid.bars.setTitle(view == .all ? "Photos" : view.title, back: trail.last?.view.title)
        app.grid.showViewPicker(view)
    }

    private func makeCards(_ view: LibraryView, in app: PhotoViewerApp) -> LibraryCards? {
        guard view != .all else { return nil }
        if let made = made[view] { return made }
        let started = ContinuousClock.now
        defer { app.logger.debug("\(view.title) made in \(started.millisecondsUntilNow) ms") }
        let favorites = app.navigator.favorites.flatMap { $0.isEmpty ? nil : $0 }
        let library = self.library ?? (days: app.days.sections(of: app.library), clips: app.library.map(\.isClip))
        self.library = library
        let cards = LibraryCards(view, of: app.library, days: library.days, clips: library.clips, titles: app.days) {
            favorites?.contains($0.file) ?? false
        }
        made[view] = cards
        return cards
    }

    /// The cards made, by view, until the library changes or the tab is chosen again (a favorite marked since may
    /// be a key photo then).
    private var made: [LibraryView: LibraryCards] = [:]

    /// The library's days and which of its photos are clips, as the cards were last made from them (nil: to be read
    /// again, the library changed): a clip is known by its name, and 100,000 names take a while.
    private var library: (days: [GridSection], clips: [Bool])?

    /// Cell `index`'s frame in the window.
    private func frame(ofCell index: Int, in app: PhotoViewerApp) -> Rect {
        let cell = app.grid.cell(at: index)
        return cell.convert(cell.bounds, to: nil)
    }

    /// The cell that shows library photo `photo` itself in a view of `cards` (nil: All Photos, where every photo has
    /// its cell), if one does.
    static func cell(showing photo: Int, in cards: LibraryCards?) -> Int? { cards.map { $0.tile(showing: photo) } ?? photo }
}
