import CWaylandProtocols
import Foundation

/// The arrow the pointer shows over the window: the desktop's cursor theme (`XCURSOR_THEME`,
/// `XCURSOR_SIZE`, as every toolkit reads them) through libwayland-cursor. A compositor keeps whatever
/// image the pointer had until a client sets one, so it is set on each enter. Without a theme that has
/// the arrow, nothing is set.
final class WaylandCursor {
    private let theme: OpaquePointer
    private let image: UnsafeMutablePointer<wl_cursor_image>
    private let buffer: OpaquePointer
    private let surface: OpaquePointer
    /// Device pixels a surface unit the images are drawn for (whole: a cursor surface has a buffer scale).
    private let scale: Int32

    /// Cursor images are this many surface units unless `XCURSOR_SIZE` says otherwise.
    static let defaultSize: Int32 = 24

    init?(shm: OpaquePointer, compositor: OpaquePointer, scale: Double) {
        let environment = ProcessInfo.processInfo.environment
        let size = environment["XCURSOR_SIZE"].flatMap(Int32.init).flatMap { (8...256).contains($0) ? $0 : nil } ?? Self.defaultSize
        self.scale = Int32(max(1, scale.rounded(.up)))
        guard let theme = wl_cursor_theme_load(environment["XCURSOR_THEME"], size * self.scale, shm) else { return nil }
        guard let cursor = wl_cursor_theme_get_cursor(theme, "default") ?? wl_cursor_theme_get_cursor(theme, "left_ptr"),
              cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
              let buffer = wl_cursor_image_get_buffer(image),
              let surface = wl_compositor_create_surface(compositor) else {
            wl_cursor_theme_destroy(theme)
            return nil
        }
        self.theme = theme
        self.image = image
        self.buffer = buffer
        self.surface = surface
        wl_surface_set_buffer_scale(surface, self.scale)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface)
    }

    deinit {
        wl_surface_destroy(surface)
        wl_cursor_theme_destroy(theme)   // its buffers with it
    }

    /// The pointer entered the window (`serial` from wl_pointer.enter).
    func show(on pointer: OpaquePointer, serial: UInt32) {
        wl_pointer_set_cursor(pointer, serial, surface, Int32(image.pointee.hotspot_x) / scale, Int32(image.pointee.hotspot_y) / scale)
    }
}
