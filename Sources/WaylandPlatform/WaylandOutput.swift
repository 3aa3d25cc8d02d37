import CWaylandProtocols

/// One wl_output: where it is in the compositor's layout, the mode it runs at and the scale it asks
/// clients for.
final class WaylandOutput {
    let proxy: OpaquePointer
    /// The current mode's refresh rate, Hz (nil: it said none, or 0).
    private(set) var refreshRate: Double?
    private(set) var scale = 1
    /// Its top-left corner in the layout, and its mode's size in pixels.
    private(set) var position = (x: 0, y: 0), pixels = (width: 0, height: 0)

    /// What it covers of the layout, in layout units (its pixels over its scale).
    var layoutBox: (x: Double, y: Double, width: Double, height: Double) {
        (Double(position.x), Double(position.y), Double(pixels.width) / Double(scale), Double(pixels.height) / Double(scale))
    }

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wl_output_add_listener(proxy, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func release() {
        if wl_proxy_get_version(proxy) >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    private static func output(_ data: UnsafeMutableRawPointer?) -> WaylandOutput? {
        data.map { Unmanaged<WaylandOutput>.fromOpaque($0).takeUnretainedValue() }
    }

    private nonisolated(unsafe) static var listener = wl_output_listener(
        geometry: { data, _, x, y, _, _, _, _, _, _ in output(data)?.position = (Int(x), Int(y)) },
        mode: { data, _, flags, width, height, refresh in
            // mHz, of the mode flagged current.
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, let output = output(data) else { return }
            output.refreshRate = refresh > 0 ? Double(refresh) / 1000 : nil
            output.pixels = (Int(width), Int(height))
        },
        done: { _, _ in },
        scale: { data, _, factor in output(data)?.scale = max(1, Int(factor)) },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
