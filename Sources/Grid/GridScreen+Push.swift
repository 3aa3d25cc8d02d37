import Animation
import Geometry
import SceneGraph

/// The grid shows something else altogether: another tab (at once), an album opened from its cover (its
/// photos push in from the right over the covers, which move aside under them) or left (the covers come
/// back from under it, the album sliding off to the right), as a navigation stack's push and pop.
extension GridScreen {
    public enum Push { case forward, back }

    /// The pages slide with this.
    static let pushMotion = Motion.spring(response: 0.4, dampingRatio: 1)
    /// The page underneath moves this fraction of the width, as iOS's navigation does.
    static let pushedAside = 0.3

    /// The grid now shows `count` cells (each waiting for its thumbnail), in `sections`: photos, or albums'
    /// covers. `atNewest`: it opens at its end (a timeline), else at its top. `push`: how the new page comes
    /// (nil: at once).
    public func replaceContents(count: Int, sections: [GridSection], covers: Bool, atNewest: Bool, push: Push?) {
        finishColumnChange()
        scrolling.stop()
        let leaving = push.map { _ in GridPageSlide.pageInView(scroll: scroll, cellLayer: cellLayer, size: size) }

        cells.reset(count: count)
        keyboardSelection = nil
        selectionRing.isHidden = true
        showsCovers = covers
        layout = makeLayout(count: count, sectionStarts: sections.map(\.start),
                            headerHeight: sections.isEmpty ? 0 : GridStyle.headerHeight)
        headers = SectionHeaders(sections: sections, layout: layout)
        scrubber.setSections(sections, count: count)
        scroll.removeAllChildren()
        ([cellLayer, selectionRing] + headers.nodes).forEach(scroll.addChild)
        showCount()
        opensAtNewest = atNewest
        relayout()
        scrolling.setOffset(openingOffset)
        arrangement += 1

        guard let push, let leaving else { return }
        GridPageSlide.slide(leaving, push, over: scroll, in: root, width: size.width, animator: animator)
    }
}

/// A push's two pages: the one leaving, cut from what the view shows, and the slide between them.
enum GridPageSlide {
    /// What the view shows of the scroll's content now, moved into a page of its own (window coordinates).
    static func pageInView(scroll: Node, cellLayer: Node, size: Size) -> Node {
        let page = Node(name: "grid.leaving", frame: scroll.frame)
        page.backgroundColor = GridStyle.background
        page.clipsToBounds = true
        let offset = scroll.bounds.origin.y
        let view = Rect(x: 0, y: offset, width: size.width, height: size.height)
        let shown = cellLayer.children + scroll.children.filter { $0 !== cellLayer }
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
