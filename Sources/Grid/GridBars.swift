import Geometry
import SceneGraph

/// A count of photos and clips as people say it.
public enum ItemCount {
    /// `items` of which `clips` are clips: "1 photo", "3 photos, 1 video", "2 videos".
    public static func words(items: Int, clips: Int) -> String {
        let stills = items - clips
        let photos = "\(stills) \(stills == 1 ? "photo" : "photos")", videos = "\(clips) \(clips == 1 ? "video" : "videos")"
        return clips == 0 ? photos : stills == 0 ? videos : photos + ", " + videos
    }
}

/// The grid's title bar, by its parts: the title (or, on the Search tab, the search field), the count on the
/// right, the back button in an album, and the line under it.
struct TitleBar {
    /// The title bar's count: "1 photo", "200 photos, 50 videos", "12 albums".
    static func countText(_ count: Int, clips: Int = 0, covers: Bool = false, cards: GridContents = .photos) -> TextContents {
        var words = covers ? "\(count) \(count == 1 ? "album" : "albums")" : ItemCount.words(items: count, clips: clips)
        if case .cards(let view, let counts) = cards, view != .all {
            let n = counts.reduce(0) { $0 + $1.count }, unit = ["year", "month", "day"][view.rawValue]
            words = "\(n) \(unit)\(n == 1 ? "" : "s")"
        }
        return TextContents(words, fontSize: GridStyle.subtitleFont, color: GridStyle.secondaryLabel, alignment: .trailing)
    }

    let node = Node(name: "titleBar")
    let title = Node(name: "titleBar.title")
    let count = Node(name: "titleBar.count")
    let separator = Node(name: "titleBar.separator")
    let searchField = Node(name: "titleBar.search")
    let searchText = Node(name: "titleBar.search.text")
    let back = Node(name: "titleBar.back")
    /// How wide the count is, points: room for its words ("200 photos, 50 videos"), at least 120, at most half the bar.
    func countWidth(in width: Double) -> Double {
        min(width / 2, max(120, Double(count.text?.string.count ?? 0) * GridStyle.subtitleFont * 0.62))
    }

    init(title words: String, count photos: Int) {
        node.backgroundColor = GridStyle.barBackground
        title.text = TextContents(words, fontSize: GridStyle.titleFont, weight: .bold, color: GridStyle.label, alignment: .leading)
        count.text = TitleBar.countText(photos)
        separator.backgroundColor = GridStyle.separator
        searchField.backgroundColor = GridStyle.loadingCell
        searchField.cornerRadius = GridStyle.searchHeight / 4
        searchField.isHidden = true
        searchField.addChild(searchText)
        back.isHidden = true
        [title, count, separator, searchField, back].forEach(node.addChild)
        showSearch("")
    }

    /// It says `words`, with a back button named `back` before them (nil: none).
    func setTitle(_ words: String, back name: String?) {
        title.text?.string = words
        back.isHidden = name == nil
        back.text = TextContents("‹ " + (name ?? ""), fontSize: GridStyle.backFont, color: GridStyle.tint, alignment: .leading)
    }

    /// The search field in place of the title, or the title.
    func showSearchField(_ shown: Bool) {
        title.isHidden = shown
        searchField.isHidden = !shown
    }

    /// The search field's words (nothing typed: what it searches, in grey), with the caret after them.
    func showSearch(_ text: String) {
        searchText.text = text.isEmpty
            ? TextContents("Name, date or camera", fontSize: GridStyle.searchFont, color: GridStyle.secondaryLabel, alignment: .leading)
            : TextContents(text + "|", fontSize: GridStyle.searchFont, color: GridStyle.label, alignment: .leading)
    }

    /// Across the top of a window `width` points wide.
    func layOut(width w: Double) {
        let p = GridStyle.barPadding, height = GridStyle.titleBarHeight
        node.frame = Rect(x: 0, y: 0, width: w, height: height)
        let backWidth = back.isHidden ? 0 : GridStyle.backWidth
        back.frame = Rect(x: p / 2, y: 0, width: backWidth, height: height)
        title.frame = Rect(x: p + backWidth, y: 0, width: max(0, w - 2 * p - backWidth), height: height)
        let countWidth = countWidth(in: w)
        count.frame = Rect(x: max(p, w - p - countWidth), y: 0, width: countWidth, height: height)
        separator.frame = Rect(x: 0, y: height - 1, width: w, height: 1)
        searchField.frame = Rect(x: p, y: (height - GridStyle.searchHeight) / 2,
                                 width: max(0, w - 3 * p - countWidth), height: GridStyle.searchHeight)
        searchText.frame = Rect(x: 10, y: 0, width: max(0, searchField.bounds.width - 20), height: GridStyle.searchHeight)
    }
}

/// The tab bar's tabs.
public enum GridTab: Int, CaseIterable {
    case library, albums, search
    var title: String { ["Library", "Albums", "Search"][rawValue] }
}

/// The tab bar: a line above one item a tab (Library, Albums, Search).
struct TabBar {
    let node = Node(name: "tabBar")
    let separator = Node(name: "tabBar.separator")
    /// By tab, in `GridTab.allCases` order.
    let items: [Node]

    init() {
        node.backgroundColor = GridStyle.barBackground
        separator.backgroundColor = GridStyle.separator
        items = GridTab.allCases.map { Node(name: "tabBar.item.\($0.rawValue)") }
        node.addChild(separator)
        items.forEach(node.addChild)
    }

    /// `tab`'s item as chosen (bold, in the tint), the others not.
    func show(_ tab: GridTab) {
        for (t, item) in zip(GridTab.allCases, items) {
            item.text = TextContents(t.title, fontSize: GridStyle.tabFont, weight: t == tab ? .bold : .regular,
                                     color: t == tab ? GridStyle.tint : GridStyle.secondaryLabel)
        }
    }

    /// The tab under `point` in a window of `size`, if any.
    func tab(at point: Point, in size: Size) -> GridTab? {
        guard point.y >= size.height - GridStyle.tabBarHeight, point.y < size.height, point.x >= 0, point.x < size.width else { return nil }
        return GridTab(rawValue: Int(point.x / (size.width / Double(GridTab.allCases.count))))
    }

    /// Across the bottom of a window of `size`.
    func layOut(in size: Size) {
        let w = size.width
        node.frame = Rect(x: 0, y: size.height - GridStyle.tabBarHeight, width: w, height: GridStyle.tabBarHeight)
        separator.frame = Rect(x: 0, y: 0, width: w, height: 1)
        let itemWidth = w / Double(items.count)
        for (i, item) in items.enumerated() {
            item.frame = Rect(x: (Double(i) * itemWidth).rounded(), y: 1, width: itemWidth.rounded(), height: GridStyle.tabBarHeight - 1)
        }
    }
}

/// What the grid says when it has no photos: a title ("No Photos") and a line under it.
struct EmptyState {
    let node = Node(name: "emptyState")
    let title = Node(name: "emptyState.title")
    let detail = Node(name: "emptyState.detail")

    init(title words: String, detail line: String) {
        title.text = TextContents(words, fontSize: GridStyle.emptyTitleFont, weight: .bold, color: GridStyle.label)
        detail.text = TextContents(line, fontSize: GridStyle.emptyDetailFont, color: GridStyle.secondaryLabel)
        node.addChild(title)
        node.addChild(detail)
    }

    /// In the middle of a window of `size`.
    func layOut(in size: Size) {
        node.frame = Rect(x: 0, y: size.height / 2 - 40, width: size.width, height: 80)
        title.frame = Rect(x: 0, y: 0, width: size.width, height: 40)
        detail.frame = Rect(x: 0, y: 40, width: size.width, height: 30)
    }
}

/// An album cover's caption, across the bottom of its cell: the album's name over its count.
struct CoverCaption {
    let node: Node
    let title: Node
    let count: Node
    /// A year's card's caption is larger than an album's.
    let scale: Double

    init(named prefix: String, name: String, detail: String, scale: Double = 1) {
        self.scale = scale
        node = Node(name: prefix + ".caption")
        node.backgroundColor = GridStyle.captionBackground
        node.clipsToBounds = true
        title = Node(name: prefix + ".caption.title")
        title.text = TextContents(name, fontSize: GridStyle.captionFont * scale, weight: .bold, color: .white, alignment: .leading)
        count = Node(name: prefix + ".caption.count")
        count.text = TextContents(detail, fontSize: GridStyle.captionDetailFont * (1 + (scale - 1) / 3), color: .white, alignment: .leading)
        node.addChild(title)
        node.addChild(count)
    }

    /// Across the bottom of `cell`.
    func layOut(in cell: Node) { layOut(across: Rect(origin: .zero, size: cell.bounds.size)) }

    /// Across the bottom of `box` (in its parent's coordinates).
    func layOut(across box: Rect) {
        let h = (GridStyle.captionHeight * (1 + (scale - 1) / 2)).rounded(), inset = GridStyle.captionInset * scale, w = box.width
        node.frame = Rect(x: box.minX, y: box.maxY - h, width: w, height: h)
        title.frame = Rect(x: inset, y: 3, width: max(0, w - 2 * inset), height: h * 0.55)
        count.frame = Rect(x: inset, y: h * 0.55, width: max(0, w - 2 * inset), height: h * 0.4)
    }
}
