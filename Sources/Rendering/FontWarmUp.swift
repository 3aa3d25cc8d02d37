import CCairo
import Foundation
import Threads

/// Loads the scene's font on a thread of its own while a launch does other things: the first text a
/// process draws costs about 5 ms (fontconfig reads its configuration and cache, FreeType opens the
/// faces), which the window's first frame would otherwise spend (a launch's first frame drew in 12–20
/// ms, 7–8 with the font loaded meanwhile).
public enum FontWarmUp {
    /// The family every text node is drawn in.
    static let family = "DejaVu Sans"

    /// Starts loading the regular and bold faces.
    public static func start() {
        Worker.start(named: "photozoom-fonts") {
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return }
            defer { cairo_surface_destroy(surface) }
            guard let cr = cairo_create(surface) else { return }
            defer { cairo_destroy(cr) }
            var extents = cairo_text_extents_t()
            for weight in [CAIRO_FONT_WEIGHT_NORMAL, CAIRO_FONT_WEIGHT_BOLD] {
                cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL, weight)
                cairo_set_font_size(cr, 17)
                cairo_text_extents(cr, "Photos 0123456789", &extents)
            }
        }
    }
}
