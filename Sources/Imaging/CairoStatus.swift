import CCairo

/// A Cairo call that failed, named with what it was doing: the one funnel for Cairo's status codes.
public struct CairoError: Error, CustomStringConvertible, Equatable {
    /// What was being done ("encoding a PNG").
    public let doing: String
    /// Cairo's own words for the status.
    public let status: String
    public var description: String { "\(doing) failed: \(status)" }

    /// Throws when `status` is not success.
    static func check(_ status: cairo_status_t, doing: String) throws(CairoError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw CairoError(doing: doing, status: String(cString: cairo_status_to_string(status)))
    }
}
