import Geometry
import Pixels

/// A retained scene node with UIView's geometry: `bounds` (its own coordinate space; a non-zero
/// origin scrolls the children, as UIScrollView does), `center` in the parent's space, and
/// `transform` applied about the centre. `frame` is derived from those three.
public final class Node {
    public var name: String
    public var bounds: Rect
    public var center: Point
    public var transform: Transform2D = .identity
    public var alpha: Double = 1
    public var isHidden = false
    public var clipsToBounds = false
    public var backgroundColor: Color?
    /// Corner radius of the background, the border and the clip, in points.
    public var cornerRadius: Double = 0
    /// A line drawn just inside the bounds, over the contents and children (CALayer's border).
    public var borderWidth: Double = 0
    public var borderColor: Color = .black
    public var image: PixelImage?
    /// What the image is (a photo's file name), for scene dumps and debugging.
    public var contentsName: String?
    public var contentMode: ContentMode = .aspectFit
    public var text: TextContents?
    /// Kept as pixels while it does not change (CALayer's `shouldRasterize`): a subtree that stays
    /// the same for two frames is drawn from one copy of itself after that (the grid under a photo
    /// flying over it). Only for an opaque background that its bounds clip to.
    public var rasterizesWhenStill = false

    public private(set) weak var parent: Node?
    public private(set) var children: [Node] = []

    public init(name: String, frame: Rect = .zero) {
        self.name = name
        bounds = Rect(origin: .zero, size: frame.size)
        center = frame.center
    }

    // MARK: Geometry

    /// The node's rectangle in its parent's space: the bounding box of the transformed bounds.
    /// Setting it (only meaningful with an identity transform, as in UIKit) sets centre and size.
    public var frame: Rect {
        get { transformToParent.apply(to: bounds) }
        set {
            bounds.size = newValue.size
            center = newValue.center
        }
    }

    /// Maps a point in this node's bounds space to its parent's space.
    public var transformToParent: Transform2D {
        let b = bounds.center
        return Transform2D(translationX: -b.x, y: -b.y)
            .concatenating(transform)
            .concatenating(Transform2D(translationX: center.x, y: center.y))
    }

    /// Maps this node's space to the root's space.
    public var transformToRoot: Transform2D {
        var t = transformToParent
        var node = parent
        while let n = node {
            t = t.concatenating(n.transformToParent)
            node = n.parent
        }
        return t
    }

    /// Converts a point in this node's space to `other`'s space (`nil`: the root's space).
    /// Both nodes must share a root.
    public func convert(_ p: Point, to other: Node?) -> Point {
        let inRoot = transformToRoot.apply(to: p)
        guard let other, let back = other.transformToRoot.inverted else { return inRoot }
        return back.apply(to: inRoot)
    }

    public func convert(_ p: Point, from other: Node?) -> Point {
        guard let other else { return transformToRoot.inverted?.apply(to: p) ?? p }
        return other.convert(p, to: self)
    }

    /// The bounding box of `r` (in this node's space) in `other`'s space.
    public func convert(_ r: Rect, to other: Node?) -> Rect {
        Rect.enclosing(r.corners.map { convert($0, to: other) })
    }

    public func convert(_ r: Rect, from other: Node?) -> Rect {
        Rect.enclosing(r.corners.map { convert($0, from: other) })
    }

    // MARK: Tree

    public func addChild(_ child: Node) {
        child.removeFromParent()
        child.parent = self
        children.append(child)
    }

    /// Adds `child` just in front of `sibling` (one of the children), behind the ones after it.
    public func insertChild(_ child: Node, above sibling: Node) {
        child.removeFromParent()
        child.parent = self
        let at = children.firstIndex { $0 === sibling }.map { $0 + 1 } ?? children.count
        children.insert(child, at: at)
    }

    public func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
    }

    /// Takes out the children `shouldGo` picks, in one pass.
    public func removeChildren(where shouldGo: (Node) -> Bool) {
        children.removeAll { child in
            guard shouldGo(child) else { return false }
            child.parent = nil
            return true
        }
    }

    public func removeAllChildren() {
        for c in children { c.parent = nil }
        children.removeAll()
    }

    /// The first node in the subtree (self included) with this name, depth first.
    public func descendant(named name: String) -> Node? {
        if self.name == name { return self }
        for c in children { if let n = c.descendant(named: name) { return n } }
        return nil
    }

    // MARK: Hit testing

    /// The deepest visible node under `p` (in this node's space), front-most first, like
    /// UIView.hitTest: hidden or nearly transparent nodes and points outside the bounds don't hit.
    public func hitTest(_ p: Point) -> Node? {
        guard !isHidden, alpha > 0.01, bounds.contains(p) else { return nil }
        for child in children.reversed() {
            guard let back = child.transformToParent.inverted else { continue }
            if let hit = child.hitTest(back.apply(to: p)) { return hit }
        }
        return self
    }
}
