import Animation
import Geometry
import Pixels
import SceneGraph
import Scrolling
import Transitions

/// The photo grid: a scrolling field of square, aspect-filled thumbnails under a title bar and
/// above a tab bar, both translucent so the photos scroll beneath them; a timeline's days each
/// start under a header that stays pinned below the title bar while its day scrolls under it. It
/// owns its nodes and lays them out again whenever the size, the scroll offset or a thumbnail changes.
public final class GridScreen: Screen, ZoomAnimatorDelegate {
    public typealias Thumbnail = GridThumbnail

    public let root = Node(name: "grid")
    public private(set) var size: Size
    public internal(set) var layout: GridLayout
    /// The column count a pinch chose (kept through resizes, within the width's range); nil: as the width gives.
    public internal(set) var chosenColumns: Int?
    /// Counts every change of where the cells lie other than a scroll (a resize, the columns changing):
    /// what is decoded follows it.
    public internal(set) var arrangement = 0
    /// The columns on their way to another count, if they are.
    var columnChange: ColumnChange?
    let animator: Animator
    /// The vertical scrolling: drag, momentum, rubber band, wheel glide.
    public let scrolling: ScrollAxis
    /// What the cells are: photos, albums' covers, or the Years, Months or Days cards' tiles.
    public internal(set) var contents = GridContents.photos
    public var showsCovers: Bool { contents == .covers }
    /// The card view shown (nil: photos or covers).
    public var shownView: LibraryView? { if case .cards(let view, _) = contents { view } else { nil } }

    let scroll = Node(name: "grid.scroll")
    /// The cells in the scene (in content coordinates, as the scroll's children).
    let cellLayer = Node(name: "grid.cells")
    /// The title bar, the tab bar, the view picker, the empty state.
    public let bars: GridChrome
    /// The cards' captions, over their tiles.
    let captions = CardCaptions()
    /// The photo a zoom transition flies to or from: the viewer's current photo, kept in one place
    /// by whoever owns the viewer (the grid only asks).
    public var transitionIndex: () -> Int? = { nil }
    /// The keyboard's selection, drawn as a ring over its cell.
    public internal(set) var keyboardSelection: Int?
    let selectionRing = Node(name: "grid.selection")
    /// Every photo's cell, by place, made when first needed (`cell(at:)`): a library of 100,000 photos makes
    /// those that come near the view. Only those near it are in the scene (`attachCells`).
    let cells: GridCells
    /// The cells in the scene: those within a screen of the view (while the columns change, those shown).
    /// The others wait outside it with their pictures: a library of 100,000 photos walks and draws only
    /// these each frame.
    var attached: Range<Int> = 0..<0
    /// The sections' headers, by section of the layout (none without sections).
    var headers: SectionHeaders
    /// The date scrubber on the right edge.
    public private(set) lazy var scrubber = DateScrubber(grid: self)

    /// `emptyMessage` is the second line shown when there are no photos. `sections` (a timeline's days)
    /// each start a row of their own under a header; none: one run of photos.
    public init(photoCount: Int, size: Size, animator: Animator, title: String = "Photos", emptyMessage: String = "",
                sections: [GridSection] = []) {
        self.size = size
        bars = GridChrome(title: title, count: photoCount, emptyMessage: emptyMessage)
        self.animator = animator
        scrolling = ScrollAxis(animator: animator)
        // A timeline's Library tab has the view picker over its tab bar.
        bars.picker.show(sections.isEmpty ? nil : .all)
        layout = GridLayout(width: size.width, count: photoCount, sectionStarts: sections.map(\.start),
                            headerHeight: sections.isEmpty ? 0 : GridStyle.headerHeight, topInset: GridStyle.titleBarHeight,
                            bottomInset: GridStyle.tabBarHeight + (sections.isEmpty ? 0 : ViewPicker.band))
        headers = SectionHeaders(sections: sections, layout: layout)
        root.backgroundColor = GridStyle.background
        root.clipsToBounds = true
        // Still under a photo flying over it or pulled down: drawn once, then copied.
        root.rasterizesWhenStill = true
        scroll.clipsToBounds = true
        root.addChild(scroll)
        [cellLayer, captions.layer].forEach(scroll.addChild)
        cells = GridCells(count: photoCount)
        scrubber.setSections(sections, count: photoCount)
        ([scrubber.root] + bars.nodes).forEach(root.addChild)
        bars.show(.library)
        bars.showCount(photoCount, clips: 0, contents: .photos, in: root)
        scrolling.onChange = { [unowned self] offset in
            scroll.bounds.origin.y = offset
            headers.pin(at: offset)
            attachCells()
            scrubber.followScrolling()
        }
        selectionRing.borderWidth = GridStyle.selectionWidth
        selectionRing.borderColor = GridStyle.tint
        selectionRing.isHidden = true
        scroll.addChild(selectionRing)
        headers.nodes.forEach(scroll.addChild)
        relayout()
    }

    /// Moves the keyboard selection to `index` (clamped to the photos) and scrolls it into view.
    public func select(_ index: Int) {
        finishColumnChange()
        guard photoCount > 0 else { return }
        let i = min(max(index, 0), photoCount - 1)
        keyboardSelection = i
        selectionRing.isHidden = false
        selectionRing.frame = layout.cellFrame(at: i)
        reveal(i)
    }

    /// Content offset, px (outside 0…max only while rubber-banding).
    public var scrollOffset: Double { scrolling.offset }

    public var photoCount: Int { cells.count }

    /// Photo `index`'s cell, made (waiting for its thumbnail, where the layout puts it) if it was not yet.
    public func cell(at index: Int) -> Node { cells.cell(at: index, frame: layout.cellFrame(at: index)) }

    /// Whether cell `index` carries a badge (`setBadge`).
    public func hasBadge(_ index: Int) -> Bool { cells.hasBadge(index) }
    /// What cell `index`'s badge says ("GIF", "0:14"); nil: it has none.
    public func badgeText(_ index: Int) -> String? { cells.badgeText(index) }

    /// Whether cell `index` shows its pixels as last seen (`Thumbnail.lastSeen`).
    public func showsLastSeen(_ index: Int) -> Bool { cells.showsLastSeen(index) }

    /// The picture of photo `index` its cell shows (a thumbnail, or an embedded one meanwhile): what the
    /// photo flies out of and back into. Nil while the cell shows nothing of it, or only its pixels
    /// as last seen.
    public func picture(at index: Int) -> PixelImage? { cells.picture(at: index) }

    public func setThumbnail(_ thumbnail: Thumbnail, at index: Int) { cells.set(thumbnail, at: index, on: cell(at: index)) }

    /// An album's name and count along the foot of cover `index`.
    public func setCaption(_ name: String, detail: String, at index: Int) {
        cells.setCaption(name, detail: detail, at: index, on: cell(at: index))
    }

    /// A small label in the corner of cell `index` (an animated photo's format, "GIF"); nil takes it away.
    public func setBadge(_ text: String?, at index: Int) { cells.setBadge(text, at: index, on: cell(at: index)) }

    /// Marks cell `index` as a favorite's (a heart in its lower-right corner), or not.
    public func setFavorite(_ favorite: Bool, at index: Int) { cells.setFavorite(favorite, at: index, on: cell(at: index)) }

    /// Whether cell `index` shows a favorite's heart.
    public func isMarkedFavorite(_ index: Int) -> Bool { cells.isMarkedFavorite(index) }

    /// Puts the cells of `wanted` (by default those within a screen of the view) in the scene, each newly
    /// put there where the layout places it, and takes the others out.
    func attachCells(_ wanted: Range<Int>? = nil) {
        let wanted = wanted ?? indices(withinScreens: 1)
        guard wanted != attached else { return }
        let leaving = attached.filter { !wanted.contains($0) }.compactMap { cells[$0].map(ObjectIdentifier.init) }
        if !leaving.isEmpty {
            let gone = Set(leaving)
            cellLayer.removeChildren { gone.contains(ObjectIdentifier($0)) }
        }
        for i in wanted where !attached.contains(i) {
            place(cell: i, at: layout.cellFrame(at: i))
            cellLayer.addChild(cell(at: i))
        }
        attached = wanted
        captions.attach(tiles: wanted, of: layout)
    }

    /// Puts cell `i` at `frame` (content coordinates), its ⚠ and badge with it.
    func place(cell i: Int, at frame: Rect) { cells.place(cell(at: i), i, at: frame) }

    public func resize(to newSize: Size) {
        guard newSize != size else { return }
        finishColumnChange()
        // Keep the first visible row in place across a change of column count.
        let anchor = layout.indices(inContentRangeFrom: scrollOffset + layout.topInset,
                                    to: scrollOffset + layout.topInset + 1).first
        size = newSize
        layout = makeLayout(count: photoCount, sectionStarts: layout.sectionStarts, headerHeight: layout.headerHeight)
        relayout()
        arrangement += 1
        if let anchor { scrolling.setOffset(layout.cellFrame(at: anchor).minY - layout.topInset - layout.headerHeight) }
    }

    /// Scroll units (positive: the content moves up), `wheelStep` px each. `gliding` (a wheel's
    /// notches) the content glides there; else (a touchpad) it moves at once, under the fingers.
    public func scroll(units dy: Double, gliding: Bool) {
        guard columnChange == nil else { return }
        let distance = dy * GridStyle.wheelStep
        if gliding { scrolling.scrollSmoothly(by: distance) } else { scrolling.scroll(by: distance) }
    }

    /// Whether the grid opened at its end (a timeline opens at its newest photos, as iOS's does).
    public internal(set) var opensAtNewest = false

    /// Where the grid opened: its top, or the end of a timeline.
    public var openingOffset: Double { opensAtNewest ? scrolling.range.upperBound : 0 }

    /// Shows the end of the timeline, its newest photos, at once: where a library opens.
    public func showNewest() {
        opensAtNewest = true
        scrolling.setOffset(openingOffset)
    }

    public typealias Tab = GridTab

    /// The view picker shows with `view` chosen (nil: it hides), the cells kept clear of it.
    public func showViewPicker(_ view: LibraryView?) {
        let changes = bars.showsViewPicker != (view != nil)
        bars.picker.show(view)
        guard changes else { return }
        let atEnd = opensAtNewest && scrolling.offset >= scrolling.range.upperBound - 0.5
        layout = makeLayout(count: photoCount, sectionStarts: layout.sectionStarts, headerHeight: layout.headerHeight)
        relayout()
        if atEnd { scrolling.setOffset(scrolling.range.upperBound) }
    }

    /// Card `k` of a card view says `name` over `detail` along its foot.
    public func setCardCaption(_ name: String, detail: String, card k: Int) { captions.set(name, detail: detail, card: k) }

    /// The shown tab tapped again: glides to where the grid opened (a timeline's newest photos, as iOS's
    /// Library tab does; else the top).
    public func glideToNewest() { scrolling.scrollSmoothly(by: openingOffset - scrolling.offset) }

    /// The section headers' titles, top to bottom.
    public var sectionTitles: [String] { headers.titles }

    /// Scrolls as little as possible, without animation, so that the cell of `index` is fully visible
    /// between the bars and below a pinned header (the least the grid can do to keep the viewer's photo
    /// in view).
    public func reveal(_ index: Int) {
        finishColumnChange()
        scrolling.setOffset(layout.offset(revealing: index, from: scrolling.offset, viewportHeight: size.height))
    }

    /// Scrolls, without animation, so that the cell of `index` is centred between the bars, as far as
    /// the content goes (the seeds' `scrollToItem(at:at: .centeredVertically)`).
    public func centre(_ index: Int) {
        finishColumnChange()
        scrolling.setOffset(layout.offset(centring: index, viewportHeight: size.height))
    }

    /// The section whose header is under `point` (window coordinates), if any.
    public func header(at point: Point) -> Int? {
        guard point.y >= layout.topInset, point.y < size.height - layout.bottomInset, columnChange == nil else { return nil }
        return headers.section(covering: scroll.convert(point, from: nil))
    }

    /// The photo whose cell is under `point` (window coordinates), if any. The bars and the headers cover
    /// the cells that scroll under them: a tap on one is not a tap on a cell.
    public func index(at point: Point) -> Int? {
        guard point.y >= layout.topInset, point.y < size.height - layout.bottomInset, columnChange == nil else { return nil }
        let p = scroll.convert(point, from: nil)
        guard scroll.bounds.contains(p), !headers.covers(p) else { return nil }
        return layout.indices(inContentRangeFrom: p.y, to: p.y + 1).first { cells[$0]?.frame.contains(p) ?? false }
    }

    // MARK: ZoomAnimatorDelegate

    public func transitionWillStartWith(zoomAnimator: ZoomAnimator) {}
    public func transitionDidEndWith(zoomAnimator: ZoomAnimator) {}

    public func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node? { transitionIndex().map { cell(at: $0) } }

    /// The selected cell's visible part: a cell partly under a bar flies from below it (as FluidPhoto
    /// clips it), not from over the bar.
    public func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect? {
        guard let i = transitionIndex() else { return nil }
        let node = cell(at: i), cell = node.convert(node.bounds, to: nil)
        let top = max(layout.topInset, headers.pinnedBottom - scrollOffset)
        let visible = Rect(x: cell.minX, y: top, width: cell.width, height: size.height - top - layout.bottomInset)
        return cell.intersection(visible) ?? cell
    }

    /// The photos whose cells intersect the viewport grown by `screens` viewport heights above and below.
    public func indices(withinScreens screens: Double) -> Range<Int> {
        if let shown = columnChange?.shown {
            // While the columns change: the cells shown, and as many again per screen either side.
            let margin = Int(screens.rounded(.up)) * shown.count
            return max(0, shown.lowerBound - margin)..<min(photoCount, shown.upperBound + margin)
        }
        let margin = screens * size.height
        return layout.indices(inContentRangeFrom: scrollOffset - margin, to: scrollOffset + size.height + margin)
    }

    // MARK: Layout

    func relayout() {
        // Every cell is placed anew as it is put back in the scene (the cells may be others since).
        cellLayer.removeAllChildren()
        captions.detachAll()
        attached = 0..<0
        root.frame = Rect(origin: .zero, size: size)
        scroll.frame = Rect(origin: .zero, size: size)
        scrolling.setRange(0...layout.maxScrollOffset(viewportHeight: size.height), viewport: size.height)
        scroll.bounds.origin.y = scrolling.offset
        cellLayer.frame = Rect(x: 0, y: 0, width: size.width, height: layout.maxScrollOffset(viewportHeight: size.height) + 2 * size.height)
        captions.layer.frame = cellLayer.frame
        attachCells()
        if let keyboardSelection { selectionRing.frame = layout.cellFrame(at: keyboardSelection) }
        headers.layOut(layout, scrollOffset: scrolling.offset)
        scrubber.layOut(in: size)
        scrubber.followScrolling()
        bars.layOut(in: size)
    }

    /// A layout for `count` cells as the grid now shows them: photos in the columns chosen, covers, or cards.
    func makeLayout(count: Int, sectionStarts: [Int], headerHeight: Double) -> GridLayout {
        let (top, bottom) = (GridStyle.titleBarHeight, GridStyle.tabBarHeight + (bars.showsViewPicker ? ViewPicker.band : 0))
        switch contents {
        case .covers: return .covers(width: size.width, count: count, topInset: top, bottomInset: bottom)
        case .cards(let view, let cards):
            return .cards(view, width: size.width, sections: cards, headerHeight: headerHeight, topInset: top, bottomInset: bottom)
        case .photos:
            return GridLayout(width: size.width, count: count, sectionStarts: sectionStarts, headerHeight: headerHeight,
                              topInset: top, bottomInset: bottom, columns: chosenColumns)
        }
    }

    /// How many of the cells are clips, for the title bar's count ("200 photos, 50 videos"), shown as it is set.
    public var clipCount = 0 {
        didSet { showCount() }
    }

    /// The title bar's count of the cells now, and the empty state while there are none.
    func showCount() { bars.showCount(cells.count, clips: clipCount, contents: contents, in: root) }
}
