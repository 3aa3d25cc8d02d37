import Cairo
import CCairo
import Geometry
import Imaging
import Pixels
import SceneGraph

/// Draws a scene graph with Cairo. The window and the PNG exporter both go through `draw`, so a
/// screenshot is exactly what the window shows.
public final class SceneRenderer {
    let cache: ScaledImageCache
    /// The pixels of still subtrees (`Node.rasterizesWhenStill`).
    let stills: StillSubtreeCache
    /// The layers' memory, kept from frame to frame.
    let layers = LayerMemory()
    /// Set while `render` draws: an exported frame makes its missing levels in place.
    private var isExporting = false
    /// While a finger zooms the photo the window draws for speed: the nearest level with the
    /// cheapest filter, whole device pixels. The frame after the gesture draws with the good filter.
    /// Exported frames are always drawn well.
    public var drawsForSpeed = false
    /// Device pixels the last draw composited as layers (translucent groups): each costs a pass over
    /// its area, and the first of a size its pages of memory.
    private(set) var layerPixels = 0
    /// While a node is drawn, device pixels that an opaque photo drawn later in the frame paints: what
    /// would be painted under them is not (`SceneRenderer+Occlusion`).
    var occluded: PixelBox?

    /// `levels`: how missing pre-scaled copies are made (in the frame, or by a worker for the window; a
    /// window's still subtrees get their copies' memory from a worker too).
    public init(levels: LevelMaking = .inPlace) {
        cache = ScaledImageCache(making: levels)
        if case .inBackground = levels { stills = StillSubtreeCache(buffersInBackground: true) } else { stills = StillSubtreeCache() }
    }

    /// Takes the pre-scaled copies made in the background since the last frame; true when any
    /// arrived (the frame on screen may have drawn a stand-in: draw again).
    public func takeArrivedLevels() -> Bool { cache.takeMade() }

    /// Whether no pre-scaled copy is being made or waits for one more draw: the next frame is drawn
    /// as a settled one would be.
    public var isIdle: Bool { cache.isIdle && !cache.wantsAnotherDraw }

    /// The last frame asked for copies that one more frame, drawn at rest, will have made: draw again.
    public var wantsAnotherDraw: Bool { cache.wantsAnotherDraw }

    /// The first Cairo failure since the last call (a copy or a surface that could not be made: that
    /// picture was left out of the frame, or drawn from a larger copy). For the window to say once.
    public func takeFailure() -> CairoError? { cache.takeFailure() }

    /// Draws `root` (and its subtree) with its parent space mapped to the context's user space,
    /// `scale` device pixels to a point (2 on a 2× display).
    public func draw(_ root: Node, on cr: OpaquePointer, scale: Double = 1) {
        cache.beginDraw()
        stills.beginDraw()
        layers.beginDraw()
        layerPixels = 0
        cairo_save(cr)
        cairo_scale(cr, scale, scale)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        drawNode(root, on: cr)
        cairo_restore(cr)
        cache.endDraw()
        stills.endDraw()
        layers.endDraw()
    }

    /// Renders the scene into a new opaque-black-backed image of `width`×`height` pixels, `scale`
    /// pixels to a point. The image is exact: no level stands in for one still being made, and a
    /// picture Cairo could not draw is an error, not a frame without it.
    public func render(_ root: Node, width: Int, height: Int, scale: Double = 1) throws(CairoError) -> PixelImage {
        isExporting = true
        defer { isExporting = false }
        _ = cache.takeFailure()
        let image = PixelImage(width: width, height: height)
        try draw(root, into: image, scale: scale, clearingTo: 0xFF00_0000)
        if let failure = cache.takeFailure() { throw failure }
        return image
    }

    /// Draws the scene over what `image` holds (or over `clearingTo`, an ARGB colour), as the window
    /// draws over its frame buffer.
    public func draw(_ root: Node, into image: PixelImage, scale: Double = 1, clearingTo clear: UInt32? = nil) throws(CairoError) {
        let surface = try image.makeCairoSurface()
        defer { cairo_surface_destroy(surface) }
        let cr = try CairoError.context(on: surface, doing: "drawing a frame")
        if let clear {
            cairo_set_source_rgba(cr, Double(clear >> 16 & 0xFF) / 255, Double(clear >> 8 & 0xFF) / 255,
                                  Double(clear & 0xFF) / 255, Double(clear >> 24) / 255)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
        }
        draw(root, on: cr, scale: scale)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    private func drawNode(_ node: Node, on cr: OpaquePointer) {
        guard !node.isHidden, node.alpha > 0 else {
            keepCopies(under: node)
            return
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }

        let t = node.transformToParent
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(cr, &m)
        if node.clipsToBounds {
            addRect(node.bounds, radius: node.cornerRadius, on: cr)
            cairo_clip(cr)
        }
        if !isExporting, let box = StillSubtreeCache.box(of: node, on: cr) {
            drawStill(node, over: box, on: cr)
            return
        }

        // A translucent node whose children paint is composited as one layer (UIKit's group opacity),
        // but only where they paint: elsewhere its own contents alone show, and are painted with its
        // alpha. The viewer's black fading in under its bar needs a layer the size of the bar, not of
        // the screen (a full-screen layer costs several ms a frame).
        guard node.alpha < 1, let layer = node.children.compactMap(paintedRect).reduce(nil, { $0?.union($1) ?? $1 }) else {
            drawContents(of: node, alpha: node.alpha, on: cr)
            return
        }
        if paintsItself(node) {
            cairo_save(cr)
            clip(toPixelsOf: layer, outside: true, on: cr)
            drawContents(of: node, alpha: node.alpha, children: false, on: cr)
            cairo_restore(cr)
        }
        clip(toPixelsOf: layer, outside: false, on: cr)
        // The clip's whole device pixels (the clip is of whole pixels now, though turned perhaps).
        var userToDevice = cairo_matrix_t()
        cairo_get_matrix(cr, &userToDevice)
        cairo_identity_matrix(cr)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_set_matrix(cr, &userToDevice)
        let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
        let width = Int(x1.rounded(.up)) - left, height = Int(y1.rounded(.up)) - top
        layerPixels += max(0, width) * max(0, height)
        if let group = layers.begin(x: left, y: top, width: width, height: height, like: cr) {
            drawContents(of: node, alpha: 1, on: group.context)
            layers.end(group, onto: cr, alpha: node.alpha)
        } else {
            cairo_push_group(cr)
            drawContents(of: node, alpha: 1, on: cr)
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, node.alpha)
        }
    }

    /// A subtree that may be kept as pixels: copied from what was kept while it is the same, else
    /// drawn (and kept, when it was the same on the frame before and drawn from final copies only).
    private func drawStill(_ node: Node, over box: PixelBox, on cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let signature = StillSubtreeCache.signature(of: node, scale: (m.xx, m.yy))
        if stills.paintCopy(of: node, signature: signature, box: box, except: occluded, on: cr) {
            cache.keep(signature.pictures)
            return
        }
        let provisional = cache.provisionalChoices
        // Drawn well even in a frame drawn for speed: it is kept, and copied while it stays still.
        // And whole, photo or not over it: it is copied out of the frame.
        let forSpeed = drawsForSpeed, inherited = occluded
        drawsForSpeed = false
        occluded = nil
        drawContents(of: node, alpha: 1, on: cr)
        drawsForSpeed = forSpeed
        occluded = inherited
        stills.drew(node, signature: signature, box: box,
                    clean: cache.provisionalChoices == provisional && !cache.wantsAnotherDraw, on: cr)
    }

    /// The node's background, image, text, children and border, painted with `alpha`.
    private func drawContents(of node: Node, alpha: Double, children: Bool = true, on cr: OpaquePointer) {
        let b = node.bounds
        if let color = node.backgroundColor, color.alpha > 0 {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
            addRect(b, radius: node.cornerRadius, on: cr)
            // Not under an opaque photo that covers it anyway (the viewer's black behind a zoomed
            // photo is a whole frame of memory written for nothing).
            if let hole = hole(in: b, of: node, alpha: alpha, on: cr) { cutOut(hole, on: cr) }
            cairo_fill(cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        }
        if let image = node.image {
            drawImage(image, in: node.contentMode.rect(forImageOfSize: Size(width: Double(image.width),
                                                                            height: Double(image.height)),
                                                       in: b),
                      alpha: alpha, on: cr)
        }
        if let text = node.text { drawText(text, in: b, alpha: alpha, on: cr) }
        if children {
            // Children under an opaque sibling that covers all that can be drawn here are not drawn
            // (the grid under the viewer's black, a whole 4K frame of cells for nothing).
            let first = node.children.lastIndex { covers($0, clipOf: cr) } ?? 0
            for child in node.children[..<first] { keepCopies(under: child) }
            let drawn = node.children[first...]
            let inherited = occluded
            for (child, occluder) in zip(drawn, occluders(after: drawn, on: cr)) {
                // Children wholly outside a clipping parent cost nothing (a long grid scrolls).
                if node.clipsToBounds && !child.frame.intersects(b) { continue }
                occluded = .larger(inherited, occluder)
                drawNode(child, on: cr)
            }
            occluded = inherited
        }
        if node.borderWidth > 0 {
            let w = node.borderWidth
            addRect(b.insetBy(dx: w / 2, dy: w / 2), radius: max(0, node.cornerRadius - w / 2), on: cr)
            let c = node.borderColor
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
            cairo_set_line_width(cr, w)
            cairo_stroke(cr)
        }
    }

    /// What is hidden or covered keeps its copies for when it shows again: the grid, hidden under the
    /// viewer, had its cells' exact copies all made again in the frame the photo landed in its cell
    /// (12–16 ms at 1080p: a refresh missed). Marks the copies of the pictures in `node`'s subtree as
    /// used this draw.
    private func keepCopies(under node: Node) {
        if let image = node.image { cache.keep(CollectionOfOne(ObjectIdentifier(image))) }
        for child in node.children { keepCopies(under: child) }
    }

    /// Whether `child` paints all of the current clip opaquely with its own background: shown, at full
    /// alpha, square-cornered, unrotated, its frame (in the user space of `cr`) holding the clip's extents.
    private func covers(_ child: Node, clipOf cr: OpaquePointer) -> Bool {
        guard !child.isHidden, child.alpha >= 1, (child.backgroundColor?.alpha ?? 0) >= 1, child.cornerRadius == 0 else { return false }
        let t = child.transformToParent
        guard t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return false }
        let painted = Rect(x: t.tx + t.a * child.bounds.minX, y: t.ty + t.d * child.bounds.minY,
                           width: t.a * child.bounds.width, height: t.d * child.bounds.height)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return painted.minX <= x0 && painted.minY <= y0 && painted.maxX >= x1 && painted.maxY >= y1
    }

    private func paintsItself(_ node: Node) -> Bool {
        (node.backgroundColor?.alpha ?? 0) > 0 || node.image != nil || node.text != nil || node.borderWidth > 0
    }

    /// Where `node` and its subtree put pixels, in its parent's space; nil where they put none.
    /// A clipping node's children are clipped one by one before they are joined: the pager's
    /// neighbours, off either side, would otherwise join into a rect over the whole screen (a
    /// full-screen layer for the viewer fading over the grid, 18 ms a frame at 4K).
    private func paintedRect(_ node: Node) -> Rect? {
        guard !node.isHidden, node.alpha > 0 else { return nil }
        var rect = paintsItself(node) ? node.bounds : nil
        for child in node.children {
            guard let painted = paintedRect(child),
                  let r = node.clipsToBounds ? painted.intersection(node.bounds) : painted else { continue }
            rect = rect?.union(r) ?? r
        }
        if node.clipsToBounds { rect = rect?.intersection(node.bounds) }
        return rect.map { node.transformToParent.apply(to: $0) }
    }

    /// Clips to the whole device pixels that `rect` (user space) touches, or to everything outside
    /// them: the two halves of a split draw meet exactly, with no antialiased seam.
    private func clip(toPixelsOf rect: Rect, outside: Bool, on cr: OpaquePointer) {
        let corners = rect.corners.map { p -> Point in
            var x = p.x, y = p.y
            cairo_user_to_device(cr, &x, &y)
            return Point(x: x, y: y)
        }
        let device = Rect.enclosing(corners)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        if outside {
            var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
            cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        }
        let x0 = device.minX.rounded(.down), y0 = device.minY.rounded(.down)
        cairo_rectangle(cr, x0, y0, device.maxX.rounded(.up) - x0, device.maxY.rounded(.up) - y0)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_clip(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_set_matrix(cr, &m)
    }

    private func drawImage(_ image: PixelImage, in rect: Rect, alpha: Double, on cr: OpaquePointer) {
        guard rect.width > 0, rect.height > 0 else { return }
        // The size the rect covers on the device decides which pre-scaled copy to use.
        var dw = rect.width, dh = 0.0, ew = 0.0, eh = rect.height
        cairo_user_to_device_distance(cr, &dw, &dh)
        cairo_user_to_device_distance(cr, &ew, &eh)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        guard Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersects(rect) else {
            cache.prepare(image, targetWidth: (dw * dw + dh * dh).squareRoot(), targetHeight: (ew * ew + eh * eh).squareRoot())
            return
        }
        guard let choice = cache.level(for: image, targetWidth: (dw * dw + dh * dh).squareRoot(),
                                       targetHeight: (ew * ew + eh * eh).squareRoot(), nearest: drawsForSpeed && !isExporting,
                                       exact: isExporting) else { return }
        let level = choice.level

        cairo_save(cr)
        defer { cairo_restore(cr) }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        // A copy within two pixels of its size on screen, unrotated, is drawn 1:1 at a whole-pixel
        // offset: a plain copy instead of a filtered resample, and as crisp as the photo is
        // (a photo at rest in the viewer, a thumbnail in its cell).
        let device = Rect(x: m.x0 + m.xx * rect.minX, y: m.y0 + m.yy * rect.minY, width: m.xx * rect.width, height: m.yy * rect.height)
        if m.yx == 0, m.xy == 0, m.xx > 0, m.yy > 0,
           abs(device.width - Double(level.image.width)) <= 2, abs(device.height - Double(level.image.height)) <= 2 {
            cairo_identity_matrix(cr)
            let x = device.minX.rounded(), y = device.minY.rounded()
            cairo_rectangle(cr, x, y, device.width.rounded(), device.height.rounded())
            cairo_clip(cr)
            cairo_set_source_surface(cr, level.surface, x, y)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        } else if choice.drawsAsExactCopy, m.yx == 0, m.xy == 0, m.xx > 0, m.yy > 0 {
            // As its exact copy will be made and drawn (that copy's size, bilinear, at the whole pixel
            // the copy goes to): when the copy replaces it, not a pixel of the cell changes (a grid
            // that shimmered as its copies came in).
            cairo_identity_matrix(cr)
            let x = device.minX.rounded(), y = device.minY.rounded()
            let width = device.width.rounded(), height = device.height.rounded()
            cairo_rectangle(cr, x, y, width, height)
            cairo_clip(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, width / Double(level.image.width), height / Double(level.image.height))
            cairo_set_source_surface(cr, level.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        } else {
            let fast = choice.isStandIn || drawsForSpeed && !isExporting
            if fast, m.yx == 0, m.xy == 0, m.xx > 0, m.yy > 0 {
                // Whole device pixels: no clip mask, and an opaque photo goes straight into the frame.
                cairo_identity_matrix(cr)
                let x0 = device.minX.rounded(), y0 = device.minY.rounded()
                cairo_rectangle(cr, x0, y0, device.maxX.rounded() - x0, device.maxY.rounded() - y0)
                cairo_clip(cr)
                if alpha == 1, level.image.isOpaque, NearestBlit.draw(level.image, covering: device, on: cr) { return }
                cairo_set_matrix(cr, &m)
            } else {
                cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
                cairo_clip(cr)
            }
            cairo_translate(cr, rect.minX, rect.minY)
            cairo_scale(cr, rect.width / Double(level.image.width), rect.height / Double(level.image.height))
            cairo_set_source_surface(cr, level.surface, 0, 0)
            // A larger stand-in, for the frame or two until its copy is made, or a frame drawn for
            // speed: the cheapest filter.
            cairo_pattern_set_filter(cairo_get_source(cr), fast ? CAIRO_FILTER_FAST : CAIRO_FILTER_BILINEAR)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        }
        if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
    }

    private func drawText(_ text: TextContents, in rect: Rect, alpha: Double, on cr: OpaquePointer) {
        cairo_select_font_face(cr, FontWarmUp.family, CAIRO_FONT_SLANT_NORMAL,
                               text.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, text.fontSize)
        let string = fitted(text.string, width: rect.width, on: cr)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, string, &extents)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let x: Double
        switch text.alignment {
        case .leading: x = rect.minX - extents.x_bearing
        case .center: x = rect.midX - extents.width / 2 - extents.x_bearing
        case .trailing: x = rect.maxX - extents.x_advance
        }
        // Centre the line box (ascent + descent) vertically.
        let y = rect.midY + (font.ascent - font.descent) / 2
        cairo_move_to(cr, x.rounded(), y.rounded())
        cairo_set_source_rgba(cr, text.color.red, text.color.green, text.color.blue, text.color.alpha * alpha)
        cairo_show_text(cr, string)
        cairo_new_path(cr)
    }

    /// `string` as it fits in `width` with the current font: whole, or with its middle elided
    /// ("aitzgorri_p…tegi.jpg"), which keeps a file name's start and its extension.
    private func fitted(_ string: String, width: Double, on cr: OpaquePointer) -> String {
        func advance(_ s: String) -> Double {
            var e = cairo_text_extents_t()
            cairo_text_extents(cr, s, &e)
            return e.x_advance
        }
        guard advance(string) > width else { return string }
        let characters = Array(string)
        func elided(keeping n: Int) -> String {
            let tail = n / 2, head = n - tail
            return String(characters[..<head]) + "…" + String(characters[(characters.count - tail)...])
        }
        // The most characters that still fit, by bisection.
        var low = 0, high = characters.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if advance(elided(keeping: mid)) <= width { low = mid } else { high = mid - 1 }
        }
        return elided(keeping: low)
    }

    private func addRect(_ r: Rect, radius: Double, on cr: OpaquePointer) {
        let radius = min(radius, r.width / 2, r.height / 2)
        guard radius > 0 else {
            cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            return
        }
        let half = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - radius, r.minY + radius, radius, -half, 0)
        cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, half)
        cairo_arc(cr, r.minX + radius, r.maxY - radius, radius, half, 2 * half)
        cairo_arc(cr, r.minX + radius, r.minY + radius, radius, 2 * half, 3 * half)
        cairo_close_path(cr)
    }
}
