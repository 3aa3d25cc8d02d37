import Cairo
import CCairo
import Pixels

extension PixelImage {
    /// A copy of a Cairo image surface's pixels. RGB24 surfaces get an opaque alpha byte.
    public convenience init(copying surface: OpaquePointer) {
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let srcStride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        let src = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        self.init(width: w, height: h, isOpaque: opaque)
        for y in 0..<h {
            let from = src.advanced(by: y * srcStride)
            let to = bytes.advanced(by: y * stride)
            to.copyMemory(from: from, byteCount: w * 4)
            if opaque {
                let words = to.assumingMemoryBound(to: UInt32.self)
                for x in 0..<w { words[x] |= 0xFF00_0000 }
            }
        }
    }

    /// A copy of a Cairo image surface's pixels at `width`×`height` (a window's frame for a recording:
    /// scaled down with the GOOD filter, which averages when it shrinks). Opaque.
    public convenience init(scaling surface: OpaquePointer, toWidth width: Int, height: Int) throws(CairoError) {
        cairo_surface_flush(surface)
        let w = Double(cairo_image_surface_get_width(surface)), h = Double(cairo_image_surface_get_height(surface))
        self.init(width: width, height: height, isOpaque: true)
        let target = try makeCairoSurface()
        defer { cairo_surface_destroy(target) }
        let cr = try CairoError.context(on: target, doing: "scaling a frame")
        cairo_scale(cr, Double(width) / w, Double(height) / h)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target)
    }

    /// A Cairo surface over this image's memory, to draw into or read. The image must outlive it.
    public func makeCairoSurface() throws(CairoError) -> OpaquePointer {
        try CairoError.checked(surface: cairo_image_surface_create_for_data(bytes.assumingMemoryBound(to: UInt8.self),
                                                                            CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                                                                            Int32(stride)),
                               doing: "making a \(width)×\(height) surface")
    }

    /// A Cairo surface to draw this image from: RGB24 when it is opaque, so that pixman copies its
    /// pixels instead of blending them (about twice as fast for a scaled photo). The image must outlive it.
    public func makeSourceSurface() throws(CairoError) -> OpaquePointer {
        try CairoError.checked(surface: cairo_image_surface_create_for_data(bytes.assumingMemoryBound(to: UInt8.self),
                                                                            isOpaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                                                            Int32(width), Int32(height), Int32(stride)),
                               doing: "making a \(width)×\(height) surface")
    }

    /// A resampled copy, filtered with Cairo's GOOD filter (area-averaging when shrinking), or with
    /// `bilinear` as a frame would draw it. Done once per size, off the frame path: a frame never
    /// scales a full-size photo.
    /// `toMemoryFile`: the copy is made in a memory file, to be handed to another process (on the heap when the
    /// kernel refuses one).
    public func scaled(toWidth w: Int, height h: Int, bilinear: Bool = false, toMemoryFile: Bool = false) throws(CairoError) -> PixelImage {
        if w == width && h == height { return self }
        let size = (width: max(1, w), height: max(1, h))
        let shared = toMemoryFile ? PixelImage(inMemoryFileOf: size.width, height: size.height, isOpaque: isOpaque) : nil
        let out = shared ?? PixelImage(width: size.width, height: size.height, isOpaque: isOpaque)
        let source = try makeSourceSurface()
        defer { cairo_surface_destroy(source) }
        let target = try out.makeCairoSurface()
        defer { cairo_surface_destroy(target) }
        let cr = try CairoError.context(on: target, doing: "scaling a picture")
        cairo_scale(cr, Double(out.width) / Double(width), Double(out.height) / Double(height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), bilinear ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target)
        return out
    }

    /// The image as PNG bytes (Cairo's encoder: the same pixels always give the same bytes). A failed
    /// encode throws: its bytes would be a truncated file.
    public func pngData() throws(CairoError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let surface = try makeCairoSurface()
        defer { cairo_surface_destroy(surface) }
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        try CairoError.check(status, doing: "encoding a PNG")
        return sink.bytes
    }
}
