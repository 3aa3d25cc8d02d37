import Cairo
import CCairo

/// Drawing a frame into a window's buffer, the same on every window system.
public enum FrameDrawing {
    /// Runs `draw` with a `cairo_t` on `surface` (window pixels), clipped to `area` when given (the rest
    /// of the buffer keeps what it held).
    public static func draw(on surface: OpaquePointer, clippedTo area: PixelRect?, _ draw: (OpaquePointer) -> Void) throws(CairoError) {
        let cr = try CairoError.context(on: surface, doing: "drawing a frame")
        if let area {
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
        }
        draw(cr)
        cairo_destroy(cr)
    }
}
