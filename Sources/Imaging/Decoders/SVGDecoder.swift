import Cairo
import CCairo
import CRSVG
import Pixels

/// SVG through librsvg, opened on first use. A vector picture has no pixels of its own: it is drawn
/// at the size it is asked for (a grid cell, the screen, the screen times the zoom), so it stays
/// sharp at any zoom; its "full size" is the size it declares (CSS pixels at 96 dpi), which is its
/// 100 %. It never reads a file it refers to (it is loaded from memory, with no base address).
enum SVGDecoder {
    /// An XML document whose first element is `<svg`: after a byte order mark, white space, an XML
    /// declaration, comments or a doctype.
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        var text = Substring(String(decoding: head.prefix(ImageFormat.sniffLength), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<svg") { return text.dropFirst(4).first.map { $0.isWhitespace || $0 == ">" } ?? false }
            // Skip `<?…?>`, `<!--…-->` and `<!DOCTYPE …>` (a doctype's internal subset is not taken).
            let close: String
            if text.hasPrefix("<?") { close = "?>" } else if text.hasPrefix("<!--") { close = "-->" } else if text.hasPrefix("<!") {
                close = ">"
            } else {
                return false
            }
            guard let end = text.range(of: close) else { return false }
            text = text[end.upperBound...]
        }
    }

    /// When a picture declares no size at all: its longer side, px.
    static let undeclaredSide = 1024.0

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        var reason: UnsafePointer<CChar>?
        guard let rsvg = photozoom_rsvg_load(&reason)?.pointee else {
            throw .libraryMissing(format: "SVG", reason: "librsvg (Debian: librsvg2-2) could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        var error: UnsafeMutablePointer<photozoom_gerror>?
        let handle = request.data.withUnsafeBufferPointer { rsvg.rsvg_handle_new_from_data($0.baseAddress!, $0.count, &error) }
        guard let handle else { throw .corrupt(format: "SVG", detail: take(&error, rsvg) ?? "librsvg could not read it") }
        defer { rsvg.g_object_unref(UnsafeMutableRawPointer(handle)) }
        rsvg.rsvg_handle_set_dpi(handle, 96)
        // A vector draws at any size: a declared size past the limits (`width="1e19"`) is drawn at the largest
        // that keeps its shape, never turned into an Int as it is.
        let declared = clamped(intrinsicSize(handle, rsvg))

        // Drawn to cover what is asked (larger than declared, to stay sharp when zoomed), within the limits.
        var scale = request.atLeast.map { max(Double($0.width) / declared.width, Double($0.height) / declared.height) } ?? 1
        scale = min(scale, Double(ImageLimits.maxSide) / max(declared.width, declared.height),
                    (Double(ImageLimits.maxPixels) / (declared.width * declared.height)).squareRoot())
        let width = max(1, Int((declared.width * scale).rounded(.up))), height = max(1, Int((declared.height * scale).rounded(.up)))
        let image = PixelImage(width: width, height: height)
        let drawn: Bool
        do throws(CairoError) {
            let surface = try image.makeCairoSurface()
            defer { cairo_surface_destroy(surface) }
            let cr = try CairoError.context(on: surface, doing: "drawing an SVG")
            defer { cairo_destroy(cr) }
            var viewport = photozoom_rsvg_rectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            drawn = rsvg.rsvg_handle_render_document(handle, cr, &viewport, &error) != 0
            cairo_surface_flush(surface)
        } catch {
            throw .drawing(error)
        }
        guard drawn else { throw .corrupt(format: "SVG", detail: take(&error, rsvg) ?? "librsvg could not draw it") }
        return DecoderOutput(image: image, fullSize: (max(1, Int(declared.width.rounded())), max(1, Int(declared.height.rounded()))))
    }

    /// `size` within the pixel limits (its shape kept as far as a pixel a side allows); a side that is not a
    /// finite positive number is taken as the undeclared one.
    static func clamped(_ size: (width: Double, height: Double)) -> (width: Double, height: Double) {
        func side(_ value: Double) -> Double { value.isFinite && value > 0 ? max(1, value) : undeclaredSide }
        var (w, h) = (side(size.width), side(size.height))
        let fit = min(1, Double(ImageLimits.maxSide) / max(w, h), (Double(ImageLimits.maxPixels) / w / h).squareRoot())
        (w, h) = (max(1, w * fit), max(1, h * fit))
        return (w, h)
    }

    /// Its declared size in pixels; from its viewBox's shape when it declares none (or only
    /// percentages), at `undeclaredSide`.
    private static func intrinsicSize(_ handle: OpaquePointer, _ rsvg: photozoom_rsvg) -> (width: Double, height: Double) {
        var w = 0.0, h = 0.0
        if rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) != 0, w >= 1, h >= 1 { return (w, h) }
        var hasWidth: Int32 = 0, hasHeight: Int32 = 0, hasViewBox: Int32 = 0
        var width = photozoom_rsvg_length(), height = photozoom_rsvg_length(), box = photozoom_rsvg_rectangle()
        rsvg.rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &width, &hasHeight, &height, &hasViewBox, &box)
        guard hasViewBox != 0, box.width > 0, box.height > 0 else { return (undeclaredSide, undeclaredSide) }
        let fit = undeclaredSide / max(box.width, box.height)
        return (box.width * fit, box.height * fit)
    }

    /// The GError's message, and the error freed.
    private static func take(_ error: inout UnsafeMutablePointer<photozoom_gerror>?, _ rsvg: photozoom_rsvg) -> String? {
        guard let e = error else { return nil }
        defer { rsvg.g_error_free(e); error = nil }
        return e.pointee.message.map { String(cString: $0) }
    }
}
