import CCairo

/// A Cairo call that failed, named with what it was doing: the one funnel for Cairo's status codes.
public struct CairoError: Error, CustomStringConvertible, Equatable, Codable {
    /// What was being done ("encoding a PNG").
    public let doing: String
    /// Cairo's own words for the status.
    public let status: String
    public var description: String { "\(doing) failed: \(status)" }

    public init(doing: String, status: String) {
        self.doing = doing
        self.status = status
    }

    /// Throws when `status` is not success.
    public static func check(_ status: cairo_status_t, doing: String) throws(CairoError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw CairoError(doing: doing, status: String(cString: cairo_status_to_string(status)))
    }

    /// A surface just made, or the error it holds: Cairo never returns nil but an inert surface in an
    /// error state (out of memory, a size over 32767 px, a bad stride), which would draw nothing.
    public static func checked(surface: OpaquePointer?, doing: String) throws(CairoError) -> OpaquePointer {
        guard let surface else { throw CairoError(doing: doing, status: "no surface") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(doing: doing, status: String(cString: cairo_status_to_string(status)))
        }
        return surface
    }

    /// A drawing context on `surface`, or the error it holds (as for surfaces).
    public static func context(on surface: OpaquePointer, doing: String) throws(CairoError) -> OpaquePointer {
        guard let cr = cairo_create(surface) else { throw CairoError(doing: doing, status: "no context") }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw CairoError(doing: doing, status: String(cString: cairo_status_to_string(status)))
        }
        return cr
    }
}
