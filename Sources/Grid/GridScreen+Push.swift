import Animation
import Geometry
import SceneGraph

/// The grid shows something else altogether: another tab (at once), an album opened from its cover (its
/// photos push in from the right over the covers, which move aside under them) or left (the covers come
/// back from under it, the album sliding off to the right), as a navigation stack's push and pop.
extension GridScreen {
    public enum Push: Equatable {
        case forward, back
        /// Another view of the timeline, zoomed into or out of (`GridZoom`).
        case zoom(GridZoom)
    }

    /// The pages slide with this.
    static let pushMotion = Motion.spring(response: 0.4, dampingRatio: 1)
    /// The page underneath moves this fraction of the width, as iOS's navigation does.
    static let pushedAside = 0.3

    /// The grid now shows `count` cells (each waiting for its thumbnail), in `sections`: photos, albums' covers or
    /// cards' tiles. `atNewest`: it opens at its end (a timeline), else at its top. `push`: how the new page comes
    /// (nil: at once).
    public func replaceContents(count: Int, sections: [GridSection], contents: GridContents, atNewest: Bool, push: Push?) {
        finishColumnChange()
        scrolling.stop()
        let leaving = push.map { _ in GridPageSlide.pageInView(scroll: scroll, layers: [cellLayer, captions.layer], size: size) }
        let flying = push.map { flyingCells(for: $0) } ?? []

        cells.reset(count: count)
        keyboardSelection = nil
        selectionRing.isHidden = true
        self.contents = contents
        if case .cards(let view, let cards) = contents { captions.reset(count: cards.joined().count, scale: view == .years ? 1.8 : 1) }
        layout = makeLayout(count: count, sectionStarts: sections.map(\.start),
                            headerHeight: sections.isEmpty ? 0 : GridStyle.headerHeight)
        headers = SectionHeaders(sections: sections, layout: layout)
        scrubber.setSections(sections, count: count)
        scroll.removeAllChildren()
        ([cellLayer, captions.layer, selectionRing] + headers.nodes).forEach(scroll.addChild)
        showCount()
        opensAtNewest = atNewest
        relayout()
        scrolling.setOffset(openingOffset)
        arrangement += 1

        guard let push, let leaving else { return }
        guard case .zoom(let zoom) = push else {
            return GridPageSlide.slide(leaving, push, over: scroll, in: root, width: size.width, animator: animator)
        }
        scrolling.setOffset(zoom.offset ?? zoom.offsetPlacing(layout.cellFrame(at: zoom.onto)))
        let landing = flying.map { ($0.node, $0.onto, cell(at: $0.onto).convert(cell(at: $0.onto).bounds, to: nil)) }
        GridViewZoom.zoom(from: leaving, into: scroll, of: root, about: zoom.finger, inward: zoom.inward,
                          flying: landing.map { ($0.0, $0.2, cell(at: $0.1)) }, animator: animator, crossFades: zoom.crossFades)
    }

    /// The cells of the page leaving that fly to cells of the next (`GridZoom.flying`), taken from it.
    private func flyingCells(for push: Push) -> [(node: Node, onto: Int)] {
        guard case .zoom(let zoom) = push else { return [] }
        return zoom.flying.compactMap { old, new in
            guard let node = cells.nodes.indices.contains(old) ? cells[old] : nil, node.parent?.name == "grid.leaving", node.image != nil else { return nil }
            return (node, new)
        }
    }
}

/// What the grid's cells are.
public enum GridContents: Equatable, Sendable {
    case photos, covers
    /// `view`'s cards, by section: the count of photos each of the section's cards shows (`GridLayout.cards`).
    case cards(LibraryView, [[Int]])
}

/// A zoom between two views of a timeline (Years, Months, Days, All Photos): the photo chosen leaves tile `from`
/// (window points) for cell `onto` of the new page, which is scrolled to keep it under `finger` (as far as the content
/// goes); the old page grows (`inward`) or shrinks about the finger as it goes, the new one comes from the other side,
/// and the card's photos fly from their old cells (`flying`: old cell to new) to their new ones.
public struct GridZoom: Equatable, Sendable {
    public var from: Rect
    public var onto: Int
    public var finger: Point
    public var inward: Bool
    /// Where the new page is scrolled (nil: where cell `onto` lies under the finger): Back returns to where it was.
    public var offset: Double?
    public var flying: [Int: Int]
    /// Reduce motion: the pages cross-fade in place.
    public var crossFades: Bool

    public init(from: Rect, onto: Int, finger: Point, inward: Bool, offset: Double? = nil, flying: [Int: Int] = [:], crossFades: Bool = false) {
        (self.from, self.onto, self.finger, self.inward, self.offset, self.flying, self.crossFades) = (from, onto, finger, inward, offset, flying, crossFades)
    }

    /// The scroll offset that puts `cell` (content coordinates) under the finger at the point of it the finger held of `from`.
    func offsetPlacing(_ cell: Rect) -> Double {
        let depth = from.height > 0 ? min(max((finger.y - from.minY) / from.height, 0), 1) : 0.5
        return cell.minY + depth * cell.height - finger.y
    }
}

/// A push's two pages: the one leaving, cut from what the view shows, and the slide between them.
enum GridPageSlide {
    /// What the view shows of the scroll's content now, moved into a page of its own (window coordinates).
    static func pageInView(scroll: Node, layers: [Node], size: Size) -> Node {
        let page = Node(name: "grid.leaving", frame: scroll.frame)
        page.backgroundColor = GridStyle.background
        page.clipsToBounds = true
        let offset = scroll.bounds.origin.y
        let view = Rect(x: 0, y: offset, width: size.width, height: size.height)
        // The layers' children (the cells, the cards' captions), not the layers, which stay for the new page.
        let shown = layers.flatMap(\.children) + scroll.children.filter { child in !layers.contains { $0 === child } }
        for node in shown where !node.isHidden && node.frame.intersection(view) != nil {
            node.center.y -= offset
            node.name += ".leaving"
            page.addChild(node)
        }
        return page
    }

    /// Forward, the new page comes in from the right over the old one, which moves aside; back, the old
    /// page slides off to the right, uncovering the new one as it comes back from aside.
    static func slide(_ leaving: Node, _ push: GridScreen.Push, over scroll: Node, in root: Node, width w: Double, animator: Animator) {
        let aside = Transform2D(translationX: -w * GridScreen.pushedAside, y: 0)
        let away = Transform2D(translationX: w, y: 0)
        scroll.backgroundColor = GridStyle.background   // the old page must not show through the gaps
        root.insertChild(leaving, above: scroll)
        if push == .forward { root.insertChild(scroll, above: leaving) }
        scroll.transform = push == .forward ? away : aside
        // At rest within a quarter pixel: the last millimetres of a spring are not worth a frame.
        animator.animate(scroll, \.transform, to: .identity, with: GridScreen.pushMotion, restThreshold: 0.25) { end in
            if end == .finished { scroll.backgroundColor = nil }
        }
        animator.animate(leaving, \.transform, to: push == .forward ? aside : away, with: GridScreen.pushMotion, restThreshold: 0.25) { _ in
            leaving.removeFromParent()
        }
    }
}
