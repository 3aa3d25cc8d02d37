import Animation
import Geometry
import SceneGraph
import Transitions

/// The zoom between two views of a timeline (`GridZoom`): the old page grows (inward) or shrinks about the finger and
/// fades, over the new one, which comes into place from the other side; the card's photos fly from their old cells to
/// their new ones over both, their new cells hidden until they land. The new page is drawn opaque, and the old one
/// goes once faded: a frame draws the two pages only for the fade's 0.25 s.
enum GridViewZoom {
    /// A page grows, or shrinks, by this much about the finger.
    static let pageScale = 1.6
    static let fade = Motion.curve(.easeOut, duration: 0.25)

    static func zoom(from leaving: Node, into scroll: Node, of root: Node, about finger: Point, inward: Bool,
                     flying: [(node: Node, to: Rect, cell: Node)], animator: Animator, crossFades: Bool) {
        root.insertChild(leaving, above: scroll)
        let grow = crossFades ? .identity : scaling(by: pageScale, about: finger, in: root)
        let shrink = crossFades ? .identity : scaling(by: 1 / pageScale, about: finger, in: root)
        let motion = crossFades ? ZoomTiming.crossFade : ZoomTiming.zoomIn
        scroll.transform = inward ? shrink : grow
        animator.animate(scroll, \.transform, to: .identity, with: motion, restThreshold: 0.25)
        animator.animate(leaving, \.transform, to: inward ? grow : shrink, with: motion, restThreshold: 0.25)
        animator.animate(leaving, \.alpha, to: 0, with: crossFades ? motion : fade) { _ in leaving.removeFromParent() }
        guard !crossFades else { return }
        for (node, to, cell) in flying {
            let from = node.convert(node.bounds, to: nil)
            node.removeFromParent()
            node.transform = .identity
            node.frame = from
            root.insertChild(node, above: leaving)
            cell.alpha = 0
            animator.animate(node, \.frame, to: to, with: motion, restThreshold: 0.25) { _ in
                node.removeFromParent()
                cell.alpha = 1
            }
        }
    }

    /// Scales a full-window node by `s` about `point` (window coordinates): the node turns about its centre.
    static func scaling(by s: Double, about point: Point, in root: Node) -> Transform2D {
        let c = root.bounds.center
        return Transform2D(a: s, b: 0, c: 0, d: s, tx: (1 - s) * (point.x - c.x), ty: (1 - s) * (point.y - c.y))
    }
}
