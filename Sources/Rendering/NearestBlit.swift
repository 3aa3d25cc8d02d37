import CCairo
import Geometry
import Glibc
import Pixels

/// The cheapest way to draw an opaque photo scaled on an axis-aligned frame: nearest neighbour,
/// straight into the image surface's memory. Zoomed in, one source row covers several device rows;
/// it is gathered once and copied to each. Used for frames drawn for speed (a pinch under way), where
/// pixman's gather of every pixel costs about five times a plain copy of the frame.
enum NearestBlit {
    /// Draws `image` to cover `device` (device pixels, fractional) within the current clip; false when
    /// the context is not a plain image surface with a rectangular, pixel-aligned clip (then nothing
    /// was drawn). The context's matrix must be the identity.
    static func draw(_ image: PixelImage, covering device: Rect, on cr: OpaquePointer) -> Bool {
        let target = cairo_get_group_target(cr)
        guard target == cairo_get_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else { return false }
        let format = cairo_image_surface_get_format(target)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
              let list = cairo_copy_clip_rectangle_list(cr) else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return false }
        let stride = Int(cairo_image_surface_get_stride(target))
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        for i in 0..<Int(list.pointee.num_rectangles) {
            let r = list.pointee.rectangles[i]
            let x0 = max(0, Int(r.x)), y0 = max(0, Int(r.y))
            let x1 = min(width, Int(r.x + r.width)), y1 = min(height, Int(r.y + r.height))
            guard x1 > x0, y1 > y0 else { continue }
            blit(image, covering: device, x0: x0, y0: y0, x1: x1, y1: y1, into: data, stride: stride)
            cairo_surface_mark_dirty_rectangle(target, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
        }
        return true
    }

    /// Fills device pixels [x0, x1) × [y0, y1) with the image pixels under their centres (edges padded).
    private static func blit(_ image: PixelImage, covering device: Rect, x0: Int, y0: Int, x1: Int, y1: Int,
                             into data: UnsafeMutablePointer<UInt8>, stride: Int) {
        let w = x1 - x0
        let scaleX = Double(image.width) / device.width, scaleY = Double(image.height) / device.height
        func source(_ d: Int, from origin: Double, scale: Double, count: Int) -> Int {
            min(count - 1, max(0, Int(((Double(d) + 0.5 - origin) * scale).rounded(.down))))
        }
        let columns = (x0..<x1).map { Int32(source($0, from: device.minX, scale: scaleX, count: image.width)) }
        // Gathered into a row that stays in the cache, then copied out whole: scattered 4-byte stores
        // into a frame far larger than the cache cost more than the gather itself.
        var gathered = [UInt32](repeating: 0, count: w)
        var previous = -1
        columns.withUnsafeBufferPointer { columns in
            gathered.withUnsafeMutableBufferPointer { gathered in
                for y in y0..<y1 {
                    let row = source(y, from: device.minY, scale: scaleY, count: image.height)
                    if row != previous {
                        let from = (image.bytes + row * image.stride).assumingMemoryBound(to: UInt32.self)
                        for i in 0..<w { gathered[i] = from[Int(columns[i])] }
                        previous = row
                    }
                    memcpy(data + y * stride + x0 * 4, gathered.baseAddress!, w * 4)
                }
            }
        }
    }
}
