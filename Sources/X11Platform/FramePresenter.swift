import Cairo
import CCairo
import CX11
import Glibc

/// Holds the client-side frame that the renderer draws into, and puts it on the window.
protocol FramePresenter: AnyObject {
    /// The Cairo image surface of the current size, drawn into before `present`.
    var surface: OpaquePointer { get }
    func resize(width: Int, height: Int) throws
    /// Shows `area` of the frame (window pixels).
    func present(area: PixelRect)
    /// Frees what the server holds for it; called once, before the connection closes.
    func close()
}

/// The frame lives in a shared-memory segment that the server reads directly (MIT-SHM): one copy
/// fewer than a socket transfer. Needs a local server and a 32-bit-per-pixel x8r8g8b8 visual.
final class SharedMemoryPresenter: FramePresenter {
    private let display: OpaquePointer
    private let window: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let gc: GC
    private var info = XShmSegmentInfo()
    private var image: UnsafeMutablePointer<XImage>?
    private(set) var surface: OpaquePointer

    /// Nil when the server or visual can't take shared-memory images.
    init?(display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32,
          width: Int, height: Int) {
        guard XShmQueryExtension(display) != 0,
              depth == 24 || depth == 32,
              visual.pointee.red_mask == 0xFF0000, visual.pointee.green_mask == 0xFF00,
              visual.pointee.blue_mask == 0xFF else { return nil }
        self.display = display
        self.window = window
        self.visual = visual
        self.depth = depth
        gc = XCreateGC(display, window, 0, nil)
        surface = placeholderSurface()
        do { try resize(width: width, height: height) } catch {
            // Every property is set: returning nil runs deinit, which destroys the surface (destroying
            // it here too aborted the viewer on a server that refuses our shared memory).
            XFreeGC(display, gc)
            return nil
        }
    }

    func close() {
        release()
        cairo_surface_destroy(surface)
        surface = placeholderSurface()
        XFreeGC(display, gc)
    }

    deinit { cairo_surface_destroy(surface) }

    func resize(width: Int, height: Int) throws {
        release()
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, &info,
                                          UInt32(width), UInt32(height)),
              image.pointee.bits_per_pixel == 32 else {
            throw X11Error.requestFailed("XShmCreateImage")
        }
        let bytes = Int(image.pointee.bytes_per_line) * height
        info.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard info.shmid >= 0, let address = shmat(info.shmid, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            _ = pz_XDestroyImage(image)
            throw X11Error.requestFailed("shmget/shmat: \(String(cString: strerror(errno)))")
        }
        info.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.readOnly = 0
        image.pointee.data = info.shmaddr
        X11ErrorFunnel.reset()
        XShmAttach(display, &info)
        XSync(display, 0)
        // Marked for removal now, so the segment goes away with the process whatever happens.
        shmctl(info.shmid, IPC_RMID, nil)
        if let error = X11ErrorFunnel.takeError() {
            shmdt(address)
            image.pointee.data = nil
            _ = pz_XDestroyImage(image)
            throw X11Error.requestFailed("XShmAttach: \(error)")
        }
        self.image = image
        // The old surface drew into the segment just released: a placeholder holds its place until
        // the new one is made.
        cairo_surface_destroy(surface)
        surface = placeholderSurface()
        let made = try CairoError.checked(surface: cairo_image_surface_create_for_data(address.assumingMemoryBound(to: UInt8.self),
                                                                                       CAIRO_FORMAT_RGB24, Int32(width), Int32(height),
                                                                                       image.pointee.bytes_per_line),
                                          doing: "making a \(width)×\(height) frame")
        cairo_surface_destroy(surface)
        surface = made
    }

    func present(area: PixelRect) {
        guard let image, let a = area.clipped(width: Int(image.pointee.width), height: Int(image.pointee.height)) else { return }
        cairo_surface_flush(surface)
        XShmPutImage(display, window, gc, image, Int32(a.x), Int32(a.y), Int32(a.x), Int32(a.y), UInt32(a.width), UInt32(a.height), 0)
        // Wait until the server has read the segment before the next frame is drawn into it.
        XSync(display, 0)
    }

    private func release() {
        guard let image else { return }
        XShmDetach(display, &info)
        XSync(display, 0)
        shmdt(info.shmaddr)
        image.pointee.data = nil
        _ = pz_XDestroyImage(image)
        self.image = nil
    }
}

/// The portable path: draw into a client-side image surface, then paint it onto the window
/// through a `cairo_xlib_surface` (a socket transfer per frame).
final class XlibSurfacePresenter: FramePresenter {
    private var window: OpaquePointer?
    private(set) var surface: OpaquePointer
    private let display: OpaquePointer

    init(display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, width: Int, height: Int) throws(CairoError) {
        self.display = display
        let target = try CairoError.checked(surface: cairo_xlib_surface_create(display, window, visual, Int32(width), Int32(height)),
                                            doing: "making the window's surface")
        do throws(CairoError) {
            surface = try frameSurface(width: width, height: height)
        } catch {
            cairo_surface_destroy(target)
            throw error
        }
        self.window = target
    }

    func close() {
        cairo_surface_destroy(window)
        window = nil
    }

    deinit { cairo_surface_destroy(surface) }

    func resize(width: Int, height: Int) throws {
        guard let window else { return }
        let resized = try frameSurface(width: width, height: height)
        cairo_xlib_surface_set_size(window, Int32(width), Int32(height))
        cairo_surface_destroy(surface)
        surface = resized
    }

    func present(area: PixelRect) {
        guard let window, let cr = try? CairoError.context(on: window, doing: "showing a frame") else { return }
        cairo_surface_flush(surface)
        cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
        cairo_clip(cr)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(window)
        XFlush(display)
    }
}

/// The client-side frame a presenter draws into, checked (Cairo refuses sides over 32767 px).
private func frameSurface(width: Int, height: Int) throws(CairoError) -> OpaquePointer {
    try CairoError.checked(surface: cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
                           doing: "making a \(width)×\(height) frame")
}

/// What a closed shared-memory presenter holds: 1×1, which Cairo can always make (else its inert
/// error surface, which draws nothing, is as good).
private func placeholderSurface() -> OpaquePointer {
    cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
}

/// A rectangle of whole window pixels.
public struct PixelRect: Equatable, Sendable {
    public var x, y, width, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part within a `width`×`height` frame; nil when none is.
    func clipped(width w: Int, height h: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, x + width), y1 = min(h, y + height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
