import Animation
import CCairo
import CWaylandProtocols
import WindowSystem

/// The window's own title bar, where the compositor draws none (GNOME's and weston's offer no
/// server-side decorations): a subsurface above the content with the title and a close button. A
/// press on it moves the window, a double click maximizes it (or restores it), a right click opens the
/// compositor's window menu, and the button closes the window. The content below is the window's
/// size as the loop knows it; the bar is hidden in full screen.
final class WaylandTitleBar {
    /// Surface units.
    static let height = 34
    /// The close button's width at the right end, surface units.
    static let closeWidth = 46.0
    /// Two presses closer than this are a double click, s.
    static let doubleClick = 0.4

    /// What the window does about a press or a release on the bar.
    enum Action: Equatable {
        case move, close, toggleMaximized
        case windowMenu(x: Int32, y: Int32)
    }

    let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private var viewport: OpaquePointer?
    private let buffers: ShmFrameBuffers
    /// Device pixels a surface unit.
    private let scale: Double
    private var title: String
    private var width = 0
    private var isShown = false
    private var closeHovered = false, closePressed = false
    private var lastPress: Double?

    init?(compositor: OpaquePointer, subcompositor: OpaquePointer, shm: OpaquePointer, viewporter: OpaquePointer?,
          parent: OpaquePointer, scale: Double, title: String) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        guard let subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent) else {
            wl_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        self.subsurface = subsurface
        self.scale = scale
        self.title = title
        buffers = ShmFrameBuffers(shm: shm)
        if let viewporter { viewport = wp_viewporter_get_viewport(viewporter, surface) }
        else if scale > 1 { wl_surface_set_buffer_scale(surface, Int32(scale)) }
        wl_subsurface_set_position(subsurface, 0, -Int32(Self.height))
        // Redrawn on its own (a hover), not with the content's frames.
        wl_subsurface_set_desync(subsurface)
    }

    deinit {
        if let viewport { wp_viewport_destroy(viewport) }
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }

    /// Shows the bar `width` surface units wide with `title` (drawn again only when something changed).
    func show(width: Int, title: String) {
        guard !isShown || width != self.width || title != self.title else { return }
        isShown = true
        self.width = width
        self.title = title
        draw()
    }

    /// Full screen: no bar.
    func hide() {
        guard isShown else { return }
        isShown = false
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
    }

    // MARK: Input (surface units on the bar)

    func pointerMoved(x: Double) { setCloseHovered(overClose(x)) }

    func pointerLeft() {
        closePressed = false
        setCloseHovered(false)
    }

    /// A press of `button` (X numbering) at `x`, `y`.
    func pressed(button: Int, x: Double, y: Double) -> Action? {
        if button == 3 { return .windowMenu(x: Int32(x), y: Int32(y) - Int32(Self.height)) }
        guard button == 1 else { return nil }
        if overClose(x) {
            closePressed = true
            return nil
        }
        let now = MonotonicClock.seconds()
        defer { lastPress = now }
        if let lastPress, now - lastPress < Self.doubleClick {
            self.lastPress = nil
            return .toggleMaximized
        }
        return .move
    }

    func released(button: Int, x: Double) -> Action? {
        guard button == 1, closePressed else { return nil }
        closePressed = false
        return overClose(x) ? .close : nil
    }

    private func overClose(_ x: Double) -> Bool { x >= Double(width) - Self.closeWidth }

    private func setCloseHovered(_ hovered: Bool) {
        guard hovered != closeHovered else { return }
        closeHovered = hovered
        if isShown { draw() }
    }

    // MARK: Drawing

    private func draw() {
        let w = Int((Double(width) * scale).rounded()), h = Int((Double(Self.height) * scale).rounded())
        guard w > 0 else { return }
        buffers.resize(width: w, height: h)
        guard let buffer = try? buffers.next() else { return }
        try? FrameDrawing.draw(on: buffer.surface, clippedTo: nil) { cr in
            cairo_scale(cr, scale, scale)
            drawBar(cr)
        }
        cairo_surface_flush(buffer.surface)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(w), Int32(h))
        if let viewport { wp_viewport_set_destination(viewport, Int32(width), Int32(Self.height)) }
        wl_surface_commit(surface)
        buffers.attached(buffer, drew: nil)
    }

    /// In surface units: a light bar with a hairline under it, the title centred in bold, and the close
    /// button's × (on red while the pointer is over it).
    private func drawBar(_ cr: OpaquePointer) {
        let w = Double(width), h = Double(Self.height)
        cairo_set_source_rgb(cr, 0.92, 0.92, 0.92)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0.78, 0.78, 0.78)
        cairo_rectangle(cr, 0, h - 1, w, 1)
        cairo_fill(cr)

        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 13)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, title, &extents)
        let room = w - 2 * Self.closeWidth
        cairo_save(cr)
        cairo_rectangle(cr, Self.closeWidth, 0, max(0, room), h)
        cairo_clip(cr)
        cairo_set_source_rgb(cr, 0.18, 0.18, 0.18)
        cairo_move_to(cr, max(Self.closeWidth, (w - extents.x_advance) / 2), (h - extents.height) / 2 - extents.y_bearing)
        cairo_show_text(cr, title)
        cairo_restore(cr)

        let x0 = w - Self.closeWidth
        if closeHovered {
            cairo_set_source_rgb(cr, 0.87, 0.22, 0.2)
            cairo_rectangle(cr, x0, 0, Self.closeWidth, h - 1)
            cairo_fill(cr)
        }
        let cx = x0 + Self.closeWidth / 2, cy = h / 2, arm = 5.0
        cairo_set_line_width(cr, 1.5)
        cairo_set_source_rgb(cr, closeHovered ? 1 : 0.25, closeHovered ? 1 : 0.25, closeHovered ? 1 : 0.25)
        cairo_move_to(cr, cx - arm, cy - arm)
        cairo_line_to(cr, cx + arm, cy + arm)
        cairo_move_to(cr, cx + arm, cy - arm)
        cairo_line_to(cr, cx - arm, cy + arm)
        cairo_stroke(cr)
    }
}
