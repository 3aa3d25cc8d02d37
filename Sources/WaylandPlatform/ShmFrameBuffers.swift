import Cairo
import CCairo
import CWaylandProtocols
import Glibc
import WindowSystem

/// The frames shared with the compositor: each a memfd mapped here, a wl_buffer over it and a Cairo
/// image surface drawing into it (x8r8g8b8, Cairo's RGB24). A buffer attached to the surface is the
/// compositor's until it sends `release`; the next frame is drawn into one released (a new one is made
/// when none is, up to `maxBuffers`). A buffer that missed frames drawn in the others since its own
/// knows what it missed (`stale`), so a frame that draws only part of itself draws that too.
final class ShmFrameBuffers {
    /// Three: one on screen, one waiting for the next refresh, one being drawn.
    static let maxBuffers = 3

    final class Buffer {
        let buffer: OpaquePointer
        let surface: OpaquePointer
        private let memory: UnsafeMutableRawPointer
        private let bytes: Int
        let width: Int, height: Int
        /// Attached and not yet released by the compositor.
        var busy = false
        /// What the other buffers drew since this one was last drawn (nil: nothing).
        var stale: PixelRect?

        init(shm: OpaquePointer, width: Int, height: Int) throws(WaylandError) {
            let stride = width * 4
            bytes = stride * height
            let fd = wayland_shm_file(bytes)
            guard fd >= 0 else { throw .cannotMakeBuffer(String(cString: strerror(errno))) }
            defer { close(fd) }   // the pool and the mapping hold the file
            guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
                throw .cannotMakeBuffer(String(cString: strerror(errno)))
            }
            guard let pool = wl_shm_create_pool(shm, fd, Int32(bytes)),
                  let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue) else {
                munmap(memory, bytes)
                throw .cannotMakeBuffer("the compositor refused a \(width)×\(height) buffer")
            }
            wl_shm_pool_destroy(pool)   // the buffer keeps what it needs
            let surface = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                              Int32(width), Int32(height), Int32(stride))
            guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                if let surface { cairo_surface_destroy(surface) }
                wl_buffer_destroy(buffer)
                munmap(memory, bytes)
                throw .cannotMakeBuffer("Cairo can't draw a \(width)×\(height) frame")
            }
            self.buffer = buffer
            self.surface = surface
            self.memory = memory
            self.width = width
            self.height = height
            wl_buffer_add_listener(buffer, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
        }

        deinit {
            cairo_surface_destroy(surface)
            wl_buffer_destroy(buffer)
            munmap(memory, bytes)
        }

        private nonisolated(unsafe) static var listener = wl_buffer_listener(
            release: { data, _ in
                guard let data else { return }
                Unmanaged<Buffer>.fromOpaque(data).takeUnretainedValue().busy = false
            })
    }

    private let shm: OpaquePointer
    private var buffers: [Buffer] = []
    private(set) var width = 0, height = 0

    init(shm: OpaquePointer) { self.shm = shm }

    /// Buffers of another size from now on (the old ones go; the compositor may still read a busy one,
    /// which is its copy's business once destroyed: wl_buffer.destroy is allowed while attached).
    func resize(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        buffers = []
        self.width = width
        self.height = height
    }

    /// A buffer to draw the next frame into: a released one, else a new one; nil when all
    /// `maxBuffers` are held by the compositor.
    func next() throws(WaylandError) -> Buffer? {
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < Self.maxBuffers else { return nil }
        let made = try Buffer(shm: shm, width: width, height: height)
        // A new buffer holds nothing: all of it must be drawn.
        made.stale = PixelRect(x: 0, y: 0, width: width, height: height)
        buffers.append(made)
        return made
    }

    /// `buffer` goes to the compositor with `drew` (nil: all of it) drawn anew: the others missed that.
    func attached(_ buffer: Buffer, drew: PixelRect?) {
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        for other in buffers where other !== buffer {
            other.stale = other.stale.map { $0.union(drew ?? whole) } ?? (drew ?? whole)
        }
        buffer.stale = nil
        buffer.busy = true
    }
}
