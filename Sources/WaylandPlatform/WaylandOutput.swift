import CWaylandProtocols

/// One wl_output: the mode it runs at and the scale it asks clients for.
final class WaylandOutput {
    let proxy: OpaquePointer
    /// The current mode's refresh rate, Hz (nil: it said none, or 0).
    private(set) var refreshRate: Double?
    private(set) var scale = 1

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
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, _, flags, _, _, refresh in
            // mHz, of the mode flagged current.
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, let output = output(data) else { return }
            output.refreshRate = refresh > 0 ? Double(refresh) / 1000 : nil
        },
        done: { _, _ in },
        scale: { data, _, factor in output(data)?.scale = max(1, Int(factor)) },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
