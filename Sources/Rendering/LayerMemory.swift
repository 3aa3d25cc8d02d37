import CCairo
import Pixels

/// The memory of the renderer's layers (a translucent node's children composited as one), kept from
/// frame to frame. A layer on a new Cairo group each frame touched its pages for the first time each
/// frame: glibc maps a block that large afresh (`MemoryPolicy`), and at 4K the viewer's bar alone
/// (1.7 MB) cost about 1.4 ms a frame of page faults, the tab bar fading out as much again.
final class LayerMemory {
    /// Draws a depth's memory may go unused before it is let go (as `StillSubtreeCache`'s copies).
    static let maxIdleDraws = 600

    /// A layer being drawn: a context over kept memory, whose user space is the frame's.
    struct Layer {
        let context: OpaquePointer
        let surface: OpaquePointer
    }

    /// The memory of each nesting depth (a layer inside a layer draws into the next), and the draw
    /// that last used it.
    private var kept: [(pixels: PixelImage, lastUse: Int)] = []
    private var depth = 0
    private var draw = 0
    /// Memories made so far (for tests).
    private(set) var made = 0

    func beginDraw() { draw += 1 }

    /// Lets go of the memory of depths not used lately.
    func endDraw() {
        while let last = kept.last, draw - last.lastUse > Self.maxIdleDraws { kept.removeLast() }
    }

    /// A cleared layer over the device pixels `x`, `y`, `width`, `height` of the frame `cr` draws, with
    /// `cr`'s transformation; nil when Cairo can't make one.
    func begin(x: Int, y: Int, width: Int, height: Int, like cr: OpaquePointer) -> Layer? {
        guard width > 0, height > 0 else { return nil }
        if depth == kept.count {
            kept.append((PixelImage(width: width, height: height), draw))
            made += 1
        } else if kept[depth].pixels.width < width || kept[depth].pixels.height < height {
            let old = kept[depth].pixels
            kept[depth].pixels = PixelImage(width: max(width, old.width), height: max(height, old.height))
            made += 1
        }
        kept[depth].lastUse = draw
        let pixels = kept[depth].pixels
        guard let surface = cairo_image_surface_create_for_data(pixels.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                Int32(width), Int32(height), Int32(pixels.stride)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface),
              cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        // Its pixel (0, 0) is the frame's (x, y): drawn with the frame's matrix, everything lands where
        // it would in the frame (as in a Cairo group).
        cairo_surface_set_device_offset(surface, Double(-x), Double(-y))
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        cairo_set_matrix(context, &m)
        depth += 1
        return Layer(context: context, surface: surface)
    }

    /// Composites `layer` onto `cr` at `alpha`, within `cr`'s clip, and ends it.
    func end(_ layer: Layer, onto cr: OpaquePointer, alpha: Double) {
        cairo_destroy(layer.context)
        cairo_surface_flush(layer.surface)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, layer.surface, 0, 0)
        cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
        cairo_surface_destroy(layer.surface)
        depth -= 1
    }
}
