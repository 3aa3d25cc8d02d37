import Cairo
import CCairo
import CX11
import CXCB
import Glibc
import WindowSystem

/// Holds the client-side frame that the renderer draws into, and puts it on the window.
protocol FramePresenter: AnyObject {
    /// The Cairo image surface of the current size, drawn into before `present`.
    var surface: OpaquePointer { get }
    func resize(width: Int, height: Int) throws
    /// Shows `area` of the frame (window pixels) at once.
    func present(area: PixelRect)
    /// The frame as a server-side pixmap (for X Present), when the server can make one over it.
    var pixmap: Pixmap? { get }
    /// Frees what the server holds for it; called once, before the connection closes.
    func close()
}

/// The frame lives in a shared-memory segment that the server reads directly (MIT-SHM): one copy
/// fewer than a socket transfer. Needs a local server and a 32-bit-per-pixel x8r8g8b8 visual. The
/// segment is a memfd passed to the server (MIT-SHM 1.2), which any server on this machine can map
/// (Xwayland run by a compositor's user too); a SysV segment where the server is older.
/// Shown at once with XShmPutImage (one buffer), or, where the server makes pixmaps over the segments,
/// presented from one of several buffers (`presented(drew:)`): a frame can be drawn while the one before
/// waits in the server for its refresh. Each frame is drawn into the first buffer not in the server, as
/// Wayland's buffers are, so a second buffer's pages are touched only once a frame is drawn while another
/// waits (a launch that shows one photo never touches it: 8 MiB fewer at 1080p).
final class SharedMemoryPresenter: FramePresenter {
    private let display: OpaquePointer
    private let window: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let gc: GC
    /// Whether the server makes pixmaps over shared segments (MIT-SHM 1.1 shared pixmaps, Z format).
    private let sharesPixmaps: Bool
    /// Whether the server maps segments passed as file descriptors (MIT-SHM 1.2).
    private let takesDescriptors: Bool
    /// How many buffers to keep when the server makes pixmaps over them.
    private let pixmapBuffers: Int
    private var buffers: [SharedMemoryBuffer] = []
    /// The buffers whose frames wait in the server for their refresh, oldest first (presents complete in order).
    private var inFlight: [Int] = []
    /// Completions still to come for frames of buffers a resize let go.
    private var completionsOfReleasedBuffers = 0
    /// The buffer the next frame is drawn into: the first free one (the oldest in flight, were none free,
    /// which the window's pacing never lets happen).
    private var back: Int {
        buffers.indices.first { !inFlight.contains($0) } ?? inFlight.first ?? 0
    }
    private var placeholder: OpaquePointer?

    /// Nil when the server or visual can't take shared-memory images. `presentBuffers`: how many
    /// buffers to make when frames will be presented from pixmaps.
    init?(display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32,
          width: Int, height: Int, presentBuffers: Int = 1, passDescriptors: Bool = true) {
        guard XShmQueryExtension(display) != 0,
              depth == 24 || depth == 32,
              visual.pointee.red_mask == 0xFF0000, visual.pointee.green_mask == 0xFF00,
              visual.pointee.blue_mask == 0xFF else { return nil }
        self.display = display
        self.window = window
        self.visual = visual
        self.depth = depth
        var major: Int32 = 0, minor: Int32 = 0, shared: Int32 = 0
        let known = XShmQueryVersion(display, &major, &minor, &shared) != 0
        sharesPixmaps = known && shared != 0 && XShmPixmapFormat(display) == ZPixmap
        takesDescriptors = passDescriptors && known && (major, minor) >= (1, 2)
        pixmapBuffers = max(1, presentBuffers)
        gc = XCreateGC(display, window, 0, nil)
        do { try resize(width: width, height: height) } catch {
            XFreeGC(display, gc)
            return nil
        }
    }

    /// The buffer drawn into next (a 1×1 placeholder once closed).
    var surface: OpaquePointer {
        if back < buffers.count { return buffers[back].surface }
        if placeholder == nil { placeholder = placeholderSurface() }
        return placeholder!
    }

    var pixmap: Pixmap? { back < buffers.count ? buffers[back].pixmap : nil }

    /// How the segments are shared, for the debug log: "memfd" or "SysV".
    var segmentKind: String { buffers.first?.isDescriptorMapping == true ? "memfd" : "SysV" }

    /// How many frames can be in the server at once.
    var bufferCount: Int { buffers.count }

    /// What the other buffers drew since the back buffer was last drawn: to draw again with a frame
    /// that draws only part of itself.
    var staleArea: PixelRect? { back < buffers.count ? buffers[back].stale : nil }

    func close() {
        release()
        XFreeGC(display, gc)
    }

    deinit {
        release()
        if let placeholder { cairo_surface_destroy(placeholder) }
    }

    func resize(width: Int, height: Int) throws {
        release()
        completionsOfReleasedBuffers += inFlight.count
        inFlight = []
        let count = sharesPixmaps ? pixmapBuffers : 1
        for _ in 0..<count {
            buffers.append(try SharedMemoryBuffer(display: display, window: window, visual: visual, depth: depth,
                                                  width: width, height: height, withPixmap: sharesPixmaps,
                                                  passingDescriptor: takesDescriptors))
        }
    }

    func present(area: PixelRect) {
        guard back < buffers.count else { return }
        let buffer = buffers[back]
        guard let a = area.clipped(width: buffer.width, height: buffer.height) else { return }
        cairo_surface_flush(buffer.surface)
        XShmPutImage(display, window, gc, buffer.image, Int32(a.x), Int32(a.y), Int32(a.x), Int32(a.y), UInt32(a.width), UInt32(a.height), 0)
        // Wait until the server has read the segment before the next frame is drawn into it.
        XSync(display, 0)
    }

    /// The back buffer went to the server with `drew` (nil: all of it) drawn anew: the others miss that
    /// part, and it is in flight until its present completes.
    func presented(drew: PixelRect?) {
        let sent = back
        guard sent < buffers.count else { return }
        let whole = PixelRect(x: 0, y: 0, width: buffers[sent].width, height: buffers[sent].height)
        for (i, buffer) in buffers.enumerated() where i != sent {
            buffer.stale = buffer.stale.map { $0.union(drew ?? whole) } ?? (drew ?? whole)
        }
        buffers[sent].stale = nil
        inFlight.append(sent)
    }

    /// The oldest frame in the server was shown (X Present's completion): its buffer is free again.
    func completed() {
        if completionsOfReleasedBuffers > 0 {
            completionsOfReleasedBuffers -= 1
        } else if !inFlight.isEmpty {
            inFlight.removeFirst()
        }
    }

    private func release() {
        for buffer in buffers { buffer.release(display: display) }
        buffers = []
    }
}

/// One frame in a shared-memory segment: the XImage over it, the Cairo surface that draws into it,
/// and, where the server makes them, a pixmap over it.
final class SharedMemoryBuffer {
    let image: UnsafeMutablePointer<XImage>
    /// Where XShmPutImage finds the segment: the image points at it, so it must not move.
    private let info: UnsafeMutablePointer<XShmSegmentInfo>
    let surface: OpaquePointer
    let pixmap: Pixmap?
    let width: Int, height: Int
    /// The segment's length when it is a memfd mapping (unmapped, not detached as SysV memory, at the end).
    private let mappedBytes: Int?
    var isDescriptorMapping: Bool { mappedBytes != nil }
    /// What the other buffers drew since this one was drawn (nil: nothing).
    var stale: PixelRect?

    init(display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32,
         width: Int, height: Int, withPixmap: Bool, passingDescriptor: Bool) throws {
        self.width = width
        self.height = height
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, info, UInt32(width), UInt32(height)),
              image.pointee.bits_per_pixel == 32 else {
            info.deallocate()
            throw X11Error.requestFailed("XShmCreateImage")
        }
        let bytes = Int(image.pointee.bytes_per_line) * height
        if passingDescriptor, let address = SharedMemoryBuffer.attachPassingDescriptor(display: display, info: info, bytes: bytes) {
            mappedBytes = bytes
            info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
            info.pointee.readOnly = 0
            image.pointee.data = info.pointee.shmaddr
        } else {
            mappedBytes = nil
            try SharedMemoryBuffer.attachSysV(display: display, image: image, info: info, bytes: bytes)
        }
        let address = UnsafeMutableRawPointer(info.pointee.shmaddr!)
        var pixmap: Pixmap?
        if withPixmap {
            X11ErrorFunnel.reset()
            let made = XShmCreatePixmap(display, window, info.pointee.shmaddr, info, UInt32(width), UInt32(height), UInt32(depth))
            XSync(display, 0)
            if X11ErrorFunnel.takeError() == nil { pixmap = made }
        }
        let surface = cairo_image_surface_create_for_data(address.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                          Int32(width), Int32(height), image.pointee.bytes_per_line)
        do {
            self.surface = try CairoError.checked(surface: surface, doing: "making a \(width)×\(height) frame")
        } catch {
            if let pixmap { XFreePixmap(display, pixmap) }
            XShmDetach(display, info)
            XSync(display, 0)
            SharedMemoryBuffer.unmap(info, bytes: mappedBytes)
            image.pointee.data = nil
            _ = pz_XDestroyImage(image)
            info.deallocate()
            throw error
        }
        self.image = image
        self.info = info
        self.pixmap = pixmap
    }

    /// A memfd of `bytes`, mapped here and handed to the server (which maps it too); nil when any
    /// step fails (the caller then tries SysV memory).
    private static func attachPassingDescriptor(display: OpaquePointer, info: UnsafeMutablePointer<XShmSegmentInfo>,
                                                bytes: Int) -> UnsafeMutableRawPointer? {
        let fd = photozoom_memfd("photozoom-frame")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(bytes)) == 0,
              let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), address != MAP_FAILED else {
            close(fd)
            return nil
        }
        let connection = XGetXCBConnection(display)
        let segment = xcb_generate_id(connection)
        // xcb closes the descriptor once it is sent; the mapping stays.
        if let error = xcb_request_check(connection, xcb_shm_attach_fd_checked(connection, segment, fd, 0)) {
            free(error)
            munmap(address, bytes)
            return nil
        }
        info.pointee.shmseg = UInt(segment)
        info.pointee.shmid = -1
        return address
    }

    /// A SysV segment attached by id (a server that can't take descriptors). Throws when the server
    /// refuses it: run by another user, it may not read the client's segments.
    private static func attachSysV(display: OpaquePointer, image: UnsafeMutablePointer<XImage>,
                                   info: UnsafeMutablePointer<XShmSegmentInfo>, bytes: Int) throws {
        info.pointee.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard info.pointee.shmid >= 0, let address = shmat(info.pointee.shmid, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            let reason = String(cString: strerror(errno))
            if info.pointee.shmid >= 0 { shmctl(info.pointee.shmid, IPC_RMID, nil) }
            _ = pz_XDestroyImage(image)
            info.deallocate()
            throw X11Error.requestFailed("shmget/shmat: \(reason)")
        }
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        X11ErrorFunnel.reset()
        XShmAttach(display, info)
        XSync(display, 0)
        // Marked for removal now, so the segment goes away with the process whatever happens.
        shmctl(info.pointee.shmid, IPC_RMID, nil)
        if let error = X11ErrorFunnel.takeError() {
            shmdt(address)
            image.pointee.data = nil
            _ = pz_XDestroyImage(image)
            info.deallocate()
            throw X11Error.requestFailed("XShmAttach: \(error)")
        }
    }

    private static func unmap(_ info: UnsafeMutablePointer<XShmSegmentInfo>, bytes: Int?) {
        if let bytes { munmap(info.pointee.shmaddr, bytes) } else { shmdt(info.pointee.shmaddr) }
    }

    /// Frees the server's pixmap and the segment; once, before the connection closes.
    func release(display: OpaquePointer) {
        cairo_surface_destroy(surface)
        if let pixmap { XFreePixmap(display, pixmap) }
        XShmDetach(display, info)
        XSync(display, 0)
        SharedMemoryBuffer.unmap(info, bytes: mappedBytes)
        image.pointee.data = nil
        _ = pz_XDestroyImage(image)
        info.deallocate()
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

    var pixmap: Pixmap? { nil }

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
