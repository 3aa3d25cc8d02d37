import Animation
import Geometry
import SceneGraph

/// The photos change under the grid (files added, removed or renamed in its folders): the cells that stay
/// keep their pictures and glide to their new places, new ones grow in where they belong, removed ones
/// shrink away, and the photo at the top of the view keeps its place on screen (a grid at its newest photos
/// stays there, showing the new ones).
extension GridScreen {
    /// Cells glide to their new places, grow in and shrink away with this.
    static let changeMotion = Motion.spring(response: 0.35, dampingRatio: 1)
    /// A cell grows in from, and shrinks away to, this scale.
    static let changeScale = 0.2

    /// The grid now shows `origins.count` photos: photo `i` is the one that was `origins[i]` (nil: new).
    /// `sections`: the new photos' days (none: one run).
    public func applyChange(origins: [Int?], sections: [GridSection]) {
        finishColumnChange()
        // Where each cell is drawn now (it may be gliding still), and where the old layout puts it.
        let oldCenters = cells.nodes.map { $0?.center }
        let oldLayout = layout, oldOffset = scrollOffset
        let kept = Set(origins.compactMap { $0 })
        let wasAtEnd = opensAtNewest && scrolling.offset >= scrolling.range.upperBound - 0.5
        // The first photo that stays, of those whose cells begin in view: it keeps its height on screen.
        let top = scrollOffset + layout.topInset + layout.headerHeight
        let anchor = layout.indices(inContentRangeFrom: top, to: scrollOffset + size.height - layout.bottomInset)
            .first { kept.contains($0) && oldLayout.cellFrame(at: $0).minY >= top - 0.5 }
        let anchorY = anchor.map { oldLayout.cellFrame(at: $0).minY - scrollOffset }

        // The cells that go: those near the view shrink away, the others just go.
        let wasNear = oldLayout.indices(inContentRangeFrom: oldOffset - size.height, to: oldOffset + 2 * size.height)
        let leaving = wasNear.filter { !kept.contains($0) }.compactMap { cells[$0] }
        var newOf: [Int: Int] = [:]
        for (i, origin) in origins.enumerated() { if let origin { newOf[origin] = i } }
        // A new photo's cell is made when it is first needed.
        cells.reorder(origins, newOf: newOf)
        keyboardSelection = keyboardSelection.flatMap { newOf[$0] }
        selectionRing.isHidden = keyboardSelection == nil
        for (i, cell) in cells.nodes.enumerated() { if let cell { rename(cell, to: i) } }

        layout = makeLayout(count: cells.count, sectionStarts: sections.map(\.start),
                            headerHeight: sections.isEmpty ? 0 : GridStyle.headerHeight)
        headers = SectionHeaders(sections: sections, layout: layout)
        scrubber.setSections(sections, count: cells.count)
        scroll.removeAllChildren()
        ([cellLayer] + leaving + [selectionRing] + headers.nodes).forEach(scroll.addChild)
        showCount()
        relayout()
        arrangement += 1
        if wasAtEnd {
            scrolling.setOffset(scrolling.range.upperBound)
        } else if let anchor, let anchorY, let now = newOf[anchor] {
            scrolling.setOffset(layout.cellFrame(at: now).minY - anchorY)
        }
        scrolling.setOffset(min(max(scrolling.offset, scrolling.range.lowerBound), scrolling.range.upperBound))

        // Only what is near the view moves (a library of 100,000 photos does not start 100,000 glides):
        // a cell glides when it was near the view and is near it now.
        let near = indices(withinScreens: 1)
        for i in near {
            let cell = cell(at: i)
            guard let old = origins[i], wasNear.contains(old), let from = oldCenters[old], from != cell.center else { continue }
            let to = cell.center
            cell.center = from
            animator.animate(cell, \.center, to: to, with: GridScreen.changeMotion)
        }
        for i in near where origins[i] == nil {
            let cell = cell(at: i)
            cell.transform = Transform2D(scale: GridScreen.changeScale)
            cell.alpha = 0
            animator.animate(cell, \.transform, to: .identity, with: GridScreen.changeMotion)
            animator.animate(cell, \.alpha, to: 1, with: GridScreen.changeMotion)
        }
        for node in leaving {
            node.name += ".leaving"
            animator.animate(node, \.transform, to: Transform2D(scale: GridScreen.changeScale), with: GridScreen.changeMotion)
            animator.animate(node, \.alpha, to: 0, with: GridScreen.changeMotion) { _ in node.removeFromParent() }
        }
    }

    /// Cell nodes are named by their photo's place: "cell.3", its ⚠ "cell.3.broken", its badge and heart.
    private func rename(_ cell: Node, to i: Int) {
        let old = cell.name, new = "cell.\(i)"
        func rename(_ node: Node) {
            if node.name == old || node.name.hasPrefix(old + ".") { node.name = new + node.name.dropFirst(old.count) }
            node.children.forEach(rename)
        }
        rename(cell)
    }
}
