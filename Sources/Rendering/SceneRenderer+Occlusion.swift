import CCairo
import Geometry
import SceneGraph

/// What an opaque photo covers is not painted under it. The photo pulled down at 4K covers 5.5 of
/// the frame's 8.3 million pixels; the grid's kept copy and the viewer's black fading over it were
/// painted whole under it, two passes over the frame (about 4 ms of the pull's first frame, which has
/// about 9 before the refresh it must reach).
extension SceneRenderer {
    /// How many levels down a background, or a later sibling, is searched for an opaque photo (the
    /// viewer's background, its pages, a page, its photo; the transitions layer and its photo).
    static let coverDepth = 3

    /// The smallest cover worth a hole, as a part of the clip's area: a grid cell covers 1–2 % of the
    /// frame, and cutting each one out of what is under it would cost more than it saves.
    static let smallestOccluder = 1.0 / 8

    /// Device pixels within which a photo drawn 1:1 at a rounded offset, or with a soft edge, may
    /// leave a pixel not wholly its own.
    static let occluderMargin = 2

    /// For each of `children`, drawn in this order on `cr`, the largest box of device pixels that
    /// a later one paints opaquely, when it is worth cutting out.
    func occluders(after children: ArraySlice<Node>, on cr: OpaquePointer) -> [PixelBox?] {
        var result = [PixelBox?](repeating: nil, count: children.count)
        guard children.count > 1 else { return result }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_set_matrix(cr, &m)
        let smallest = Int((x1 - x0) * (y1 - y0) * Self.smallestOccluder)
        var best: PixelBox?
        for offset in stride(from: children.count - 1, to: 0, by: -1) {
            if let cover = coverInParent(of: children[children.startIndex + offset], depth: Self.coverDepth - 1),
               let box = devicePixels(surelyCoveredBy: cover, on: cr), box.area >= smallest {
                best = .larger(best, box)
            }
            result[offset - 1] = best
        }
        return result
    }

    /// A rect in `node`'s space that its image or its subtree paints opaquely: an opaque photo at
    /// full alpha, unrotated, down to `depth` levels; nil when none is known.
    func opaqueCover(of node: Node, depth: Int) -> Rect? {
        guard !node.isHidden, node.alpha >= 1 else { return nil }
        var best: Rect?
        if let image = node.image, image.isOpaque {
            let drawn = node.contentMode.rect(forImageOfSize: Size(width: Double(image.width), height: Double(image.height)),
                                              in: node.bounds)
            // Rounded corners clip the photo: the rect inside them.
            let bounds = node.bounds.insetBy(dx: node.cornerRadius, dy: node.cornerRadius)
            best = node.clipsToBounds ? drawn.intersection(bounds) : drawn
        }
        guard depth > 0 else { return best }
        for child in node.children {
            guard let mapped = coverInParent(of: child, depth: depth - 1),
                  let cover = node.clipsToBounds ? mapped.intersection(node.bounds.insetBy(dx: node.cornerRadius, dy: node.cornerRadius))
                                                 : mapped else { continue }
            if cover.width * cover.height > (best.map { $0.width * $0.height } ?? 0) { best = cover }
        }
        return best
    }

    /// `opaqueCover` of `child` in its parent's space, where its transform keeps it unrotated.
    private func coverInParent(of child: Node, depth: Int) -> Rect? {
        let t = child.transformToParent
        guard t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return nil }
        return opaqueCover(of: child, depth: depth).map { t.apply(to: $0) }
    }

    /// The whole device pixels that `cover` (user space, unrotated) surely paints, less the margin.
    func devicePixels(surelyCoveredBy cover: Rect, on cr: OpaquePointer) -> PixelBox? {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0 else { return nil }
        let margin = Self.occluderMargin
        let x0 = Int((m.x0 + m.xx * cover.minX).rounded(.up)) + margin, y0 = Int((m.y0 + m.yy * cover.minY).rounded(.up)) + margin
        let x1 = Int((m.x0 + m.xx * cover.maxX).rounded(.down)) - margin, y1 = Int((m.y0 + m.yy * cover.maxY).rounded(.down)) - margin
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The device pixels of `rect` (the node's background, square-cornered) that need not be filled:
    /// under the photo over it in its own subtree (only at full alpha: its own translucent fill shows
    /// through nothing) or under one drawn later in the frame.
    func hole(in rect: Rect, of node: Node, alpha: Double, on cr: OpaquePointer) -> PixelBox? {
        guard node.cornerRadius == 0 else { return nil }
        var own: PixelBox?
        if alpha >= 1, let cover = opaqueCover(of: node, depth: Self.coverDepth) { own = devicePixels(surelyCoveredBy: cover, on: cr) }
        guard let hole = PixelBox.larger(own, occluded) else { return nil }
        // Within the rect's own whole pixels: a hole reaching out of the path would be filled, even-odd.
        return devicePixels(surelyCoveredBy: rect, on: cr).flatMap { $0.intersection(hole) }
    }

    /// Cuts `hole` (device pixels, inside the current path) out of the current path, to fill even-odd.
    func cutOut(_ hole: PixelBox, on cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, Double(hole.x), Double(hole.y), Double(hole.width), Double(hole.height))
        cairo_set_matrix(cr, &m)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    }
}
