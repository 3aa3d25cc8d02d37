import CCairo
import Geometry
import Pixels
import SceneGraph

/// Pixels of the subtrees marked `rasterizesWhenStill`: a subtree drawn the same way on two frames
/// running is copied out of the frame it was drawn into, and later frames copy it back instead of
/// drawing it while nothing in it changes (the grid under a photo zooming in or pulled down: at 4K,
/// its sixty cells cost 8–12 ms a frame, the copy about 3).
///
/// "The same way" is a signature of everything the renderer reads from the visible nodes, the
/// device transform, and whether every picture was drawn from its final copy (a frame with a stand-in
/// is never kept: the copy that replaces it would never be shown).
final class StillSubtreeCache {
    /// Draws a kept copy may go unused before it is let go: about ten seconds of motion at 60 Hz, so
    /// that the grid kept while a photo zoomed in is still there when it is pulled down again (the
    /// pull's first frames drew the 4K grid twice, 27–34 ms each). One window of memory, at most.
    static let maxIdleDraws = 600

    private struct Entry {
        /// The signature of the last draw (its hash); a copy is taken when the next draw has the same.
        var signature: Int?
        /// The copy's memory, over `device`, once `buffers` had it ready.
        var pixels: PixelImage?
        /// A surface over `pixels`; nil until a copy is taken.
        var surface: OpaquePointer?
        var device: PixelBox
        /// Whether `surface` holds the draw with `signature`.
        var isCurrent: Bool
        var lastUse: Int
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private let buffers: CopyBuffers
    private var draw = 0
    /// Subtrees drawn from a copy since `beginDraw` (for tests).
    private(set) var copiesDrawn = 0
    /// Device pixels painted from copies since `beginDraw` (for tests).
    private(set) var copiedPixels = 0

    /// `buffersInBackground`: the copies' memory is made on a thread (the window), not in the frame.
    init(buffersInBackground: Bool = false) {
        buffers = CopyBuffers(inBackground: buffersInBackground)
    }

    deinit { for entry in entries.values { entry.surface.map(cairo_surface_destroy) } }

    func beginDraw() {
        draw += 1
        copiesDrawn = 0
        copiedPixels = 0
    }

    /// Lets go of the copies not used lately, and of those whose nodes are gone.
    func endDraw() {
        for (key, entry) in entries where draw - entry.lastUse > Self.maxIdleDraws {
            entry.surface.map(cairo_surface_destroy)
            entries[key] = nil
        }
    }

    /// Where `node`'s bounds lie on the device, in whole pixels, when it can be kept: an opaque
    /// background under an axis-aligned transform, clipped to bounds that fall on whole pixels.
    static func box(of node: Node, on cr: OpaquePointer) -> PixelBox? {
        guard node.rasterizesWhenStill, node.clipsToBounds, node.alpha >= 1, node.cornerRadius == 0,
              (node.backgroundColor?.alpha ?? 0) >= 1 else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0 else { return nil }
        let b = node.bounds
        let corners = [m.x0 + m.xx * b.minX, m.y0 + m.yy * b.minY, m.x0 + m.xx * b.maxX, m.y0 + m.yy * b.maxY]
        guard corners.allSatisfy({ abs($0 - $0.rounded()) < 1e-6 }) else { return nil }
        let x0 = Int(corners[0].rounded()), y0 = Int(corners[1].rounded())
        return PixelBox(x: x0, y: y0, width: Int(corners[2].rounded()) - x0, height: Int(corners[3].rounded()) - y0)
    }

    /// A subtree's drawing, summed up: two draws with the same hash put the same pixels.
    struct Signature {
        let hash: Int
        /// The pictures it shows, for the copies the renderer keeps of them.
        let pictures: [ObjectIdentifier]
    }

    /// What the renderer reads of `node`'s subtree as it would draw it at `scale` (device pixels a
    /// point, from the context's matrix): hidden nodes and clipping ones outside the subtree's bounds
    /// are left out (a thumbnail arriving for a cell scrolled out of view changes no pixel of it).
    static func signature(of node: Node, scale: (Double, Double)) -> Signature {
        var hasher = Hasher()
        hasher.combine(scale.0)
        hasher.combine(scale.1)
        var pictures: [ObjectIdentifier] = []
        combine(node, showing: node.bounds, into: &hasher, pictures: &pictures)
        return Signature(hash: hasher.finalize(), pictures: pictures)
    }

    /// `shown`: the part of `node`'s space that can show (a bounding box of it: never smaller; nil: not known).
    private static func combine(_ node: Node, showing shown: Rect?, into hasher: inout Hasher, pictures: inout [ObjectIdentifier]) {
        guard !node.isHidden, node.alpha > 0 else { return }
        hasher.combine(ObjectIdentifier(node))
        hasher.combine(node.alpha)
        hasher.combine(node.transformToParent)
        hasher.combine(node.bounds)
        hasher.combine(node.clipsToBounds)
        hasher.combine(node.backgroundColor)
        hasher.combine(node.cornerRadius)
        hasher.combine(node.borderWidth)
        hasher.combine(node.borderColor)
        // By serial, not address: a picture let go may leave its address to a new one.
        hasher.combine(node.image?.serial)
        if let image = node.image { pictures.append(ObjectIdentifier(image)) }
        hasher.combine(node.contentMode)
        hasher.combine(node.text)
        hasher.combine(node.children.count)
        let inside = node.clipsToBounds ? (shown ?? node.bounds).intersection(node.bounds) : shown
        if node.clipsToBounds && inside == nil { return }
        for child in node.children where !node.clipsToBounds || child.frame.intersects(node.bounds) {
            // A node that clips shows nothing of its subtree outside its bounds; one that does not may.
            let childShown = inside.flatMap { area in child.transformToParent.inverted.map { $0.apply(to: area) } }
            if child.clipsToBounds, let childShown, !childShown.intersects(child.bounds) {
                // Its copies are kept all the same, as drawing it would (it scrolls back into view).
                addPictures(of: child, to: &pictures)
                continue
            }
            combine(child, showing: childShown, into: &hasher, pictures: &pictures)
        }
    }

    private static func addPictures(of node: Node, to pictures: inout [ObjectIdentifier]) {
        guard !node.isHidden, node.alpha > 0 else { return }
        if let image = node.image { pictures.append(ObjectIdentifier(image)) }
        for child in node.children { addPictures(of: child, to: &pictures) }
    }

    /// Whether the context's clip lets all of `box` be drawn (a frame that draws only an animated
    /// photo's area leaves the rest of the subtree as it was on screen, which the frame does not hold).
    private static func clipHolds(_ box: PixelBox, on cr: OpaquePointer) -> Bool {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_set_matrix(cr, &m)
        return x0 <= Double(box.x) && y0 <= Double(box.y) && x1 >= Double(box.x + box.width) && y1 >= Double(box.y + box.height)
    }

    /// Paints the kept copy of `node` when its signature still holds, but over `hole` (device pixels
    /// an opaque photo drawn later covers); false when it must be drawn.
    func paintCopy(of node: Node, signature: Signature, box: PixelBox, except hole: PixelBox?, on cr: OpaquePointer) -> Bool {
        let key = ObjectIdentifier(node)
        guard var entry = entries[key], entry.isCurrent, entry.signature == signature.hash, entry.device == box,
              let surface = entry.surface else { return false }
        entry.lastUse = draw
        entries[key] = entry
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        let hole = hole.flatMap { $0.intersection(box) }
        if let hole {
            cairo_rectangle(cr, Double(hole.x), Double(hole.y), Double(hole.width), Double(hole.height))
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        }
        cairo_clip(cr)
        cairo_set_source_surface(cr, surface, Double(box.x), Double(box.y))
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_restore(cr)
        copiesDrawn += 1
        copiedPixels += box.area - (hole?.area ?? 0)
        return true
    }

    /// `node` was just drawn into the frame of `cr` over `box`, with `signature`; `clean`: from final
    /// copies only. The second such draw running is copied out of the frame.
    func drew(_ node: Node, signature: Signature, box: PixelBox, clean: Bool, on cr: OpaquePointer) {
        let key = ObjectIdentifier(node)
        var entry = entries[key] ?? Entry(signature: nil, device: box, isCurrent: false, lastUse: draw)
        let still = entry.signature == signature.hash && entry.device == box
        entry.signature = signature.hash
        entry.lastUse = draw
        entry.isCurrent = false
        if entry.device != box {
            entry.surface.map(cairo_surface_destroy)
            entry.surface = nil
            entry.pixels = nil
        }
        entry.device = box
        // Asked for at the first draw, so that it is ready for the second.
        if entry.pixels == nil { entry.pixels = buffers.take(width: box.width, height: box.height) }
        if still, clean, let pixels = entry.pixels, Self.clipHolds(box, on: cr), let target = cairo_get_target(cr),
           cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE {
            cairo_surface_flush(target)
            // The copy is kept in the frame's own format, so copying it back changes no pixel.
            if entry.surface == nil {
                let made = cairo_image_surface_create_for_data(pixels.bytes.assumingMemoryBound(to: UInt8.self),
                                                               cairo_image_surface_get_format(target),
                                                               Int32(box.width), Int32(box.height), Int32(pixels.stride))
                if let made, cairo_surface_status(made) == CAIRO_STATUS_SUCCESS { entry.surface = made } else { made.map(cairo_surface_destroy) }
            }
            if let surface = entry.surface, let copy = cairo_create(surface) {
                cairo_set_source_surface(copy, target, Double(-box.x), Double(-box.y))
                cairo_set_operator(copy, CAIRO_OPERATOR_SOURCE)
                cairo_paint(copy)
                entry.isCurrent = cairo_status(copy) == CAIRO_STATUS_SUCCESS
                cairo_destroy(copy)
            }
        }
        entries[key] = entry
    }
}
