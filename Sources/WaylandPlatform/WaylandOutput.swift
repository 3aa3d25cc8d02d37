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
    /// Where it is in the layout and how big, in layout units, as xdg-output says (a fractional scale
    /// shows only there: 1920 pixels 1280 wide is 1.5).
    private var logical: (x: Int, y: Int, width: Int, height: Int)?
    private var xdgOutput: OpaquePointer?

    /// What it covers of the layout, in layout units (its pixels over its scale where xdg-output is missing).
    var layoutBox: (x: Double, y: Double, width: Double, height: Double) {
        if let logical, logical.width > 0, logical.height > 0 {
            return (Double(logical.x), Double(logical.y), Double(logical.width), Double(logical.height))
        }
        return (Double(position.x), Double(position.y), Double(pixels.width) / Double(scale), Double(pixels.height) / Double(scale))
    }

    /// Device pixels a layout unit: fractional where xdg-output tells (1.25, 1.5 …), else wl_output.scale.
    var fractionalScale: Double {
        guard let logical, logical.width > 0, pixels.width > 0 else { return Double(scale) }
        // The mode's width along the layout's x (a rotated output has them swapped).
        let across = (logical.width >= logical.height) == (pixels.width >= pixels.height) ? pixels.width : pixels.height
        return (Double(across) / Double(logical.width) * 100).rounded() / 100
    }

    /// Asks xdg-output where the output is in the layout (its answer comes with the next round trip).
    func describe(with manager: OpaquePointer) {
        guard xdgOutput == nil, let made = zxdg_output_manager_v1_get_xdg_output(manager, proxy) else { return }
        xdgOutput = made
        zxdg_output_v1_add_listener(made, &Self.xdgListener, Unmanaged.passUnretained(self).toOpaque())
    }

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wl_output_add_listener(proxy, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func release() {
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
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

    private nonisolated(unsafe) static var xdgListener = zxdg_output_v1_listener(
        logical_position: { data, _, x, y in
            guard let o = output(data) else { return }
            o.logical = (Int(x), Int(y), o.logical?.width ?? 0, o.logical?.height ?? 0)
        },
        logical_size: { data, _, width, height in
            guard let o = output(data) else { return }
            o.logical = (o.logical?.x ?? 0, o.logical?.y ?? 0, Int(width), Int(height))
        },
        done: { _, _ in },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
