import Geometry
import Pixels
import SceneGraph

/// A cell as the grid draws it: its picture fills it and is cut at its edges.
public enum GridCellNode {
    public static func make(name: String) -> Node {
        let cell = Node(name: name)
        cell.clipsToBounds = true
        cell.contentMode = .aspectFill
        return cell
    }

    /// A cell of `size` showing `thumbnail` with the badge `badge` (nil: none), on its own: what a launch's first screen
    /// keeps of it (`GridSnapshotStore`).
    public static func make(size: Size, showing thumbnail: PixelImage, badge: String?) -> Node {
        let cell = make(name: "cell")
        cell.frame = Rect(origin: .zero, size: size)
        cell.image = thumbnail
        if let badge { GridCells.badge(badge, name: "cell.badge", in: cell) }
        return cell
    }
}

/// What a grid cell shows.
public enum GridThumbnail {
    case loading
    /// Loading, in the photo's mean colour (0xRRGGBB, as the library index keeps it) until its thumbnail comes.
    case colour(UInt32)
    case loaded(PixelImage)
    /// The cell's own pixels as a launch before showed them (`GridSnapshotStore`), shown until its
    /// thumbnail comes: a crop of the photo, so no photo flies out of it (`picture(at:)`).
    case lastSeen(PixelImage)
    case failed
}

/// The grid's cells, by photo: each made when first needed, with what it shows (its thumbnail, the pixels a
/// launch before left, or a ⚠) and what it carries (an animated photo's badge, a favorite's heart, an
/// album's caption). Where a cell lies is the grid's to say.
final class GridCells {
    /// Every photo's cell, by place (nil until first needed).
    private(set) var nodes: [Node?]
    /// The cells showing their pixels as last seen (`GridScreen.Thumbnail.lastSeen`).
    private var lastSeen: Set<Int> = []
    private var captions: [Int: CoverCaption] = [:]
    private var badges: [Int: Node] = [:]
    private var favoriteMarks: [Int: Node] = [:]

    init(count: Int) { nodes = Array(repeating: nil, count: count) }

    var count: Int { nodes.count }
    subscript(index: Int) -> Node? { nodes[index] }

    /// Photo `index`'s cell, made (waiting for its thumbnail, at `frame`) if it was not yet.
    func cell(at index: Int, frame: @autoclosure () -> Rect) -> Node {
        if let cell = nodes[index] { return cell }
        let cell = GridCellNode.make(name: "cell.\(index)")
        cell.backgroundColor = GridStyle.loadingCell
        cell.frame = frame()
        nodes[index] = cell
        return cell
    }

    /// `count` cells, none made yet, carrying nothing.
    func reset(count: Int) {
        nodes = Array(repeating: nil, count: count)
        (lastSeen, captions, badges, favoriteMarks) = ([], [:], [:], [:])
    }

    /// Cell `i` is the one that was `origins[i]` (nil: a new photo's, made when first needed), with what it
    /// carried; `newOf` maps each old place that stays to its new one.
    func reorder(_ origins: [Int?], newOf: [Int: Int]) {
        nodes = origins.map { $0.flatMap { nodes[$0] } }
        func moved<Value>(_ byOld: [Int: Value]) -> [Int: Value] {
            Dictionary(uniqueKeysWithValues: byOld.compactMap { old, value in newOf[old].map { ($0, value) } })
        }
        badges = moved(badges)
        favoriteMarks = moved(favoriteMarks)
        captions = moved(captions)
        lastSeen = Set(lastSeen.compactMap { newOf[$0] })
    }

    func hasBadge(_ index: Int) -> Bool { badges[index] != nil }
    func badgeText(_ index: Int) -> String? { badges[index]?.text?.string }
    func showsLastSeen(_ index: Int) -> Bool { lastSeen.contains(index) }
    func isMarkedFavorite(_ index: Int) -> Bool { favoriteMarks[index] != nil }
    /// The picture photo `index`'s cell shows of it (nil: nothing, or only its pixels as last seen).
    /// Asked of a place the grid does not have yet (a viewer laid out for a list that grew before the grid did): nil.
    func picture(at index: Int) -> PixelImage? { lastSeen.contains(index) || !nodes.indices.contains(index) ? nil : nodes[index]?.image }

    /// What `cell` (photo `index`'s) shows.
    func set(_ thumbnail: GridThumbnail, at index: Int, on cell: Node) {
        cell.removeAllChildren()
        badges[index] = nil
        cell.contentsName = nil
        lastSeen.remove(index)
        switch thumbnail {
        case .loading:
            cell.image = nil
            cell.backgroundColor = GridStyle.loadingCell
        case .colour(let rgb):
            cell.image = nil
            cell.backgroundColor = Color(hex: rgb)
        case .loaded(let image):
            cell.image = image
            cell.backgroundColor = nil
        case .lastSeen(let image):
            cell.image = image
            cell.backgroundColor = nil
            lastSeen.insert(index)
        case .failed:
            cell.image = nil
            cell.backgroundColor = GridStyle.brokenCell
            let glyph = Node(name: "cell.\(index).broken", frame: Rect(origin: .zero, size: cell.bounds.size))
            glyph.text = TextContents("⚠", fontSize: GridStyle.brokenGlyphFont, color: GridStyle.secondaryLabel)
            cell.addChild(glyph)
        }
        if let mark = favoriteMarks[index] { cell.addChild(mark) }
        if let caption = captions[index] { cell.addChild(caption.node) }
    }

    /// An album's name and count along the foot of `cell` (cover `index`'s).
    func setCaption(_ name: String, detail: String, at index: Int, on cell: Node) {
        captions[index]?.node.removeFromParent()
        let caption = CoverCaption(named: "cell.\(index)", name: name, detail: detail)
        cell.addChild(caption.node)
        captions[index] = caption
        caption.layOut(in: cell)
    }

    /// A small label in the corner of `cell` (photo `index`'s: an animated photo's format, "GIF"); nil takes it away.
    func setBadge(_ text: String?, at index: Int, on cell: @autoclosure () -> Node) {
        badges[index]?.removeFromParent()
        badges[index] = nil
        guard let text else { return }
        let badge = Self.badge(text, name: "cell.\(index).badge", in: cell())
        badges[index] = badge
    }

    /// A badge saying `text`, laid out in `cell`'s corner.
    @discardableResult
    static func badge(_ text: String, name: String, in cell: Node) -> Node {
        let badge = Node(name: name)
        badge.backgroundColor = GridStyle.badgeBackground
        badge.cornerRadius = GridStyle.badgeHeight / 2
        badge.text = TextContents(text, fontSize: GridStyle.badgeFont, weight: .bold, color: .white)
        cell.addChild(badge)
        layOut(badge: badge, in: cell)
        return badge
    }

    /// A favorite's heart in the lower-right corner of `cell` (photo `index`'s), or none.
    func setFavorite(_ favorite: Bool, at index: Int, on cell: @autoclosure () -> Node) {
        favoriteMarks[index]?.removeFromParent()
        favoriteMarks[index] = nil
        guard favorite else { return }
        let mark = Node(name: "cell.\(index).favorite")
        mark.backgroundColor = GridStyle.badgeBackground
        mark.cornerRadius = GridStyle.badgeHeight / 2
        mark.text = TextContents("♥", fontSize: GridStyle.badgeFont + 2, color: .white)
        cell().addChild(mark)
        favoriteMarks[index] = mark
        Self.layOut(favoriteMark: mark, in: cell())
    }

    /// Puts `cell` (photo `i`'s) at `frame`, its ⚠, badge, heart and caption with it.
    func place(_ cell: Node, _ i: Int, at frame: Rect) {
        cell.frame = frame
        for child in cell.children { child.frame = Rect(origin: .zero, size: cell.bounds.size) }
        if let badge = badges[i] { Self.layOut(badge: badge, in: cell) }
        if let mark = favoriteMarks[i] { Self.layOut(favoriteMark: mark, in: cell) }
        captions[i]?.layOut(in: cell)
    }

    private static func layOut(badge: Node, in cell: Node) {
        let width = Double(badge.text?.string.count ?? 3) * GridStyle.badgeFont * 0.72 + GridStyle.badgeHeight / 2
        badge.frame = Rect(x: GridStyle.badgeInset, y: cell.bounds.height - GridStyle.badgeInset - GridStyle.badgeHeight,
                           width: width, height: GridStyle.badgeHeight)
    }

    private static func layOut(favoriteMark mark: Node, in cell: Node) {
        let side = GridStyle.badgeHeight + 4
        mark.frame = Rect(x: cell.bounds.width - GridStyle.badgeInset - side, y: cell.bounds.height - GridStyle.badgeInset - GridStyle.badgeHeight,
                          width: side, height: GridStyle.badgeHeight)
    }
}
