import CX11

/// Whether an X server is Xwayland: its XWAYLAND extension (23.1 on), or, before it, the names it gives
/// its RandR outputs (XWAYLAND0, XWAYLAND1, …).
enum XwaylandDetection {
    static func isXwayland(_ display: OpaquePointer) -> Bool {
        var opcode: Int32 = 0, firstEvent: Int32 = 0, firstError: Int32 = 0
        if XQueryExtension(display, "XWAYLAND", &opcode, &firstEvent, &firstError) != 0 { return true }
        guard XRRQueryExtension(display, &firstEvent, &firstError) != 0,
              let resources = XRRGetScreenResourcesCurrent(display, XDefaultRootWindow(display)) else { return false }
        defer { XRRFreeScreenResources(resources) }
        return (0..<Int(resources.pointee.noutput)).contains { i in
            guard let info = XRRGetOutputInfo(display, resources, resources.pointee.outputs[i]) else { return false }
            defer { XRRFreeOutputInfo(info) }
            return String(cString: info.pointee.name).hasPrefix("XWAYLAND")
        }
    }
}
