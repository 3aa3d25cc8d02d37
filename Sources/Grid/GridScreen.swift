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
    /// The title bar's title: "Photos", "Albums", an album's name.
    public private(set) var title: String
    /// Whether the cells are albums' covers (each with its caption), not photos.
    public internal(set) var showsCovers = false

    let scroll = Node(name: "grid.scroll")
    /// The cells in the scene (in content coordinates, as the scroll's children).
    let cellLayer = Node(name: "grid.cells")
    let titleBar: TitleBar
    let tabs = TabBar()
    /// The tab bar's node. Built and laid out here; the app may lift it above every screen so that it can fade over them.
    public var tabBar: Node { tabs.node }
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
    var emptyState: EmptyState?
    /// What the empty state says ("No Photos", and a line under it).
    private(set) var emptyTitle = "No Photos"
    private(set) var emptyMessage: String

    /// `emptyMessage` is the second line shown when there are no photos. `sections` (a timeline's days)
    /// each start a row of their own under a header; none: one run of photos.
    public init(photoCount: Int, size: Size, animator: Animator, title: String = "Photos", emptyMessage: String = "",
                sections: [GridSection] = []) {
        self.size = size
        self.title = title
        self.emptyMessage = emptyMessage
        self.animator = animator
        scrolling = ScrollAxis(animator: animator)
        layout = GridLayout(width: size.width, count: photoCount, sectionStarts: sections.map(\.start),
                            headerHeight: sections.isEmpty ? 0 : GridStyle.headerHeight,
                            topInset: GridStyle.titleBarHeight, bottomInset: GridStyle.tabBarHeight)
        headers = SectionHeaders(sections: sections, layout: layout)
        root.backgroundColor = GridStyle.background
        root.clipsToBounds = true
        // Still under a photo flying over it or pulled down: drawn once, then copied.
        root.rasterizesWhenStill = true
        scroll.clipsToBounds = true
        root.addChild(scroll)
        scroll.addChild(cellLayer)
        cells = GridCells(count: photoCount)
        titleBar = TitleBar(title: title, count: photoCount)
        if photoCount == 0 { emptyState = makeEmptyState() }
        scrubber.setSections(sections, count: photoCount)
        root.addChild(scrubber.root)
        root.addChild(titleBar.node)
        root.addChild(tabs.node)
        show(.library)
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

    /// The tab shown.
    public private(set) var shownTab = Tab.library

    /// The tab under `point` (window coordinates), if any.
    public func tab(at point: Point) -> Tab? { tabs.tab(at: point, in: size) }

    /// Shows `tab`'s bar item as chosen, and its title bar: the title, or the search field.
    public func show(_ tab: Tab) {
        shownTab = tab
        tabs.show(tab)
        titleBar.showSearchField(tab == .search)
    }

    /// The title bar says `title`, with a back button named `back` before it (nil: none).
    public func setTitle(_ title: String, back: String?) {
        self.title = title
        titleBar.setTitle(title, back: back)
        layoutBars()
    }

    /// Whether the title bar shows a back button (an album is open).
    public var showsBackButton: Bool { !titleBar.back.isHidden }

    /// Whether `point` (window coordinates) is on the title bar's back button, while it shows.
    public func isBackButton(at point: Point) -> Bool {
        !titleBar.back.isHidden && titleBar.back.frame.contains(point)
    }

    /// The search field's words (nothing typed: what it searches, in grey), with the caret after them.
    public func showSearch(_ text: String) { titleBar.showSearch(text) }

    /// What the grid says when it has no photos.
    public func setEmptyState(title: String, detail: String) {
        emptyTitle = title
        emptyMessage = detail
        emptyState?.title.text?.string = title
        emptyState?.detail.text?.string = detail
    }

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
        let cell = layout.cellFrame(at: index)
        let clear = layout.topInset + layout.headerHeight
        let top = scrolling.offset + clear, bottom = scrolling.offset + size.height - layout.bottomInset
        if cell.minY < top {
            scrolling.setOffset(cell.minY - clear)
        } else if cell.maxY > bottom {
            scrolling.setOffset(cell.maxY - size.height + layout.bottomInset)
        }
    }

    /// Scrolls, without animation, so that the cell of `index` is centred between the bars, as far as
    /// the content goes (the seeds' `scrollToItem(at:at: .centeredVertically)`).
    public func centre(_ index: Int) {
        finishColumnChange()
        let cell = layout.cellFrame(at: index)
        let middle = layout.topInset + (size.height - layout.topInset - layout.bottomInset) / 2
        scrolling.setOffset(cell.midY - middle)
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
        attached = 0..<0
        root.frame = Rect(origin: .zero, size: size)
        scroll.frame = Rect(origin: .zero, size: size)
        scrolling.setRange(0...layout.maxScrollOffset(viewportHeight: size.height), viewport: size.height)
        scroll.bounds.origin.y = scrolling.offset
        cellLayer.frame = Rect(x: 0, y: 0, width: size.width, height: layout.maxScrollOffset(viewportHeight: size.height) + 2 * size.height)
        attachCells()
        if let keyboardSelection { selectionRing.frame = layout.cellFrame(at: keyboardSelection) }
        headers.layOut(layout, scrollOffset: scrolling.offset)
        scrubber.layOut(in: size)
        scrubber.followScrolling()
        layoutBars()
        emptyState?.layOut(in: size)
    }

    /// A layout for `count` cells as the grid now shows them: photos in the columns chosen, or covers.
    func makeLayout(count: Int, sectionStarts: [Int], headerHeight: Double) -> GridLayout {
        showsCovers
            ? .covers(width: size.width, count: count, topInset: GridStyle.titleBarHeight, bottomInset: GridStyle.tabBarHeight)
            : GridLayout(width: size.width, count: count, sectionStarts: sectionStarts, headerHeight: headerHeight,
                         topInset: GridStyle.titleBarHeight, bottomInset: GridStyle.tabBarHeight, columns: chosenColumns)
    }

    private func layoutBars() {
        titleBar.layOut(width: size.width)
        tabs.layOut(in: size)
    }

    /// How many of the cells are clips, for the title bar's count ("200 photos, 50 videos"), shown as it is set.
    public var clipCount = 0 {
        didSet { showCount() }
    }

    /// The title bar's count of the cells now, and the empty state while there are none.
    func showCount() {
        titleBar.count.text = TitleBar.countText(cells.count, clips: min(clipCount, cells.count), covers: showsCovers)
        layoutBars()   // the count's words take the room they need
        if cells.count == 0, emptyState == nil { emptyState = makeEmptyState() }
        if cells.count > 0 {
            emptyState?.node.removeFromParent()
            emptyState = nil
        }
    }

    private func makeEmptyState() -> EmptyState {
        let state = EmptyState(title: emptyTitle, detail: emptyMessage)
        root.addChild(state.node)
        return state
    }
}
