import CWaylandProtocols
import Foundation
import Glibc
import Logging

/// The connection to a Wayland compositor and the globals the viewer binds: a compositor, shared memory,
/// the xdg shell (required), and what it uses where offered (seat, outputs, presentation times,
/// viewporter and fractional scale, xdg-output, server-side decorations, subsurfaces for its own title bar, the
/// data device for the clipboard and drops).
final class WaylandDisplay {
    let display: OpaquePointer
    private(set) var registry: OpaquePointer?
    /// Each global bound, by interface name: its proxy and the version bound.
    private(set) var globals: [String: (proxy: OpaquePointer, version: UInt32)] = [:]
    /// wl_output globals by registry name (several may come and go).
    private(set) var outputs: [UInt32: WaylandOutput] = [:]
    /// The seat's devices, listened to from before the compositor's first word about them: it names the
    /// devices a seat has once, as it is bound (a virtual keyboard or a VNC server's pointer that was
    /// there before the viewer started is never named again).
    private(set) var seat: WaylandSeat?
    /// The clock wp_presentation reports times on (CLOCK_MONOTONIC unless it says otherwise).
    var presentationClock = CLOCK_MONOTONIC
    let socketName: String
    let logger: Logger

    /// The versions the viewer speaks of each global (the lower of this and the compositor's is bound).
    private static let versions: [String: UInt32] = [
        "wl_compositor": 4, "wl_subcompositor": 1, "wl_shm": 1, "wl_seat": 8, "wl_output": 2, "wl_data_device_manager": 3, "xdg_wm_base": 2,
        "wp_presentation": 1, "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1,
        "zxdg_decoration_manager_v1": 1, "zwlr_virtual_pointer_manager_v1": 1, "zwp_virtual_keyboard_manager_v1": 1,
        "zxdg_output_manager_v1": 3, "zwp_pointer_gestures_v1": 2,
    ]

    /// Connects to `$WAYLAND_DISPLAY` and learns its globals (two round trips); throws when there is no
    /// compositor to talk to or it lacks what a window needs.
    init(logger: Logger) throws {
        let name = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "wayland-0"
        socketName = name
        self.logger = logger
        guard let display = wl_display_connect(nil) else { throw WaylandError.cannotConnect(name) }
        self.display = display
        guard let registry = wl_display_get_registry(display) else { throw WaylandError.cannotConnect(name) }
        self.registry = registry
        wl_registry_add_listener(registry, &Self.registryListener, Unmanaged.passUnretained(self).toOpaque())
        // The globals, then the events the new bindings send at once (outputs' modes and places, the
        // seat's abilities).
        guard wl_display_roundtrip(display) >= 0 else { throw WaylandError.lost(name) }
        describeOutputs()
        seat = global("wl_seat").map { WaylandSeat($0, gestures: global("zwp_pointer_gestures_v1")) }
        guard wl_display_roundtrip(display) >= 0 else { throw WaylandError.lost(name) }
        for required in ["wl_compositor", "wl_shm", "xdg_wm_base"] where globals[required] == nil {
            throw WaylandError.missingGlobal(required, name)
        }
    }

    deinit {
        seat = nil
        for output in outputs.values { output.release() }
        for (name, global) in globals {
            // Those with a destructor request say so; the rest only go on the client side.
            switch name {
            case "wl_seat" where global.version >= 5: wl_seat_release(global.proxy)
            case "xdg_wm_base": xdg_wm_base_destroy(global.proxy)
            case "wp_presentation": wp_presentation_destroy(global.proxy)
            case "wp_viewporter": wp_viewporter_destroy(global.proxy)
            case "wp_fractional_scale_manager_v1": wp_fractional_scale_manager_v1_destroy(global.proxy)
            case "zxdg_decoration_manager_v1": zxdg_decoration_manager_v1_destroy(global.proxy)
            case "zwlr_virtual_pointer_manager_v1": zwlr_virtual_pointer_manager_v1_destroy(global.proxy)
            case "zxdg_output_manager_v1": zxdg_output_manager_v1_destroy(global.proxy)
            case "zwp_pointer_gestures_v1" where global.version >= 2: zwp_pointer_gestures_v1_release(global.proxy)
            default: wl_proxy_destroy(global.proxy)
            }
        }
        if let registry { wl_registry_destroy(registry) }
        wl_display_disconnect(display)
    }

    func global(_ name: String) -> OpaquePointer? { globals[name]?.proxy }

    /// The highest refresh rate among the outputs, Hz (the window's output is not known until it enters
    /// one); nil when none says.
    var refreshRate: Double? {
        outputs.values.compactMap(\.refreshRate).max()
    }

    /// The largest scale an output has: fractional where xdg-output tells; 1 when none says.
    var outputScale: Double {
        outputs.values.map(\.fractionalScale).max() ?? 1
    }

    /// Each output is asked where it is in the layout (xdg-output), where the compositor tells.
    private func describeOutputs() {
        guard let manager = global("zxdg_output_manager_v1") else { return }
        for output in outputs.values { output.describe(with: manager) }
    }

    /// Whether the connection failed (the compositor went away or sent a protocol error).
    var hasFailed: Bool { wl_display_get_error(display) != 0 }

    private func announced(name: UInt32, interface: String, version: UInt32) {
        guard let registry, let wanted = Self.versions[interface], let table = wayland_bound_interface(interface) else { return }
        let bound = min(wanted, version)
        guard let raw = wl_registry_bind(registry, name, table, bound) else { return }
        let proxy = OpaquePointer(raw)
        switch interface {
        case "wl_output":
            let output = WaylandOutput(proxy: proxy)
            outputs[name] = output
            if let manager = global("zxdg_output_manager_v1") { output.describe(with: manager) }
        case "xdg_wm_base":
            globals[interface] = (proxy, bound)
            xdg_wm_base_add_listener(proxy, &Self.wmBaseListener, nil)
        case "wp_presentation":
            globals[interface] = (proxy, bound)
            wp_presentation_add_listener(proxy, &Self.presentationListener, Unmanaged.passUnretained(self).toOpaque())
        default:
            // A second seat is left alone: the viewer reads one.
            if globals[interface] == nil { globals[interface] = (proxy, bound) } else { wl_proxy_destroy(proxy) }
        }
    }

    private func removed(name: UInt32) {
        outputs.removeValue(forKey: name)?.release()
    }

    private nonisolated(unsafe) static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<WaylandDisplay>.fromOpaque(data).takeUnretainedValue()
                .announced(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<WaylandDisplay>.fromOpaque(data).takeUnretainedValue().removed(name: name)
        })

    /// The compositor checks the client is alive.
    private nonisolated(unsafe) static var wmBaseListener = xdg_wm_base_listener(
        ping: { _, base, serial in xdg_wm_base_pong(base, serial) })

    private nonisolated(unsafe) static var presentationListener = wp_presentation_listener(
        clock_id: { data, _, clock in
            guard let data else { return }
            Unmanaged<WaylandDisplay>.fromOpaque(data).takeUnretainedValue().presentationClock = clockid_t(clock)
        })
}

/// What went wrong with the compositor, in one line.
public enum WaylandError: Error, CustomStringConvertible, Equatable {
    case cannotConnect(String)
    case missingGlobal(String, String)
    case lost(String)
    case cannotMakeBuffer(String)

    public var description: String {
        switch self {
        case .cannotConnect(let name): "cannot connect to the Wayland compositor \(name) (is WAYLAND_DISPLAY right?)"
        case .missingGlobal(let global, let name): "the Wayland compositor \(name) offers no \(global), which a window needs"
        case .lost(let name): "lost the connection to the Wayland compositor \(name)"
        case .cannotMakeBuffer(let why): "cannot make a frame buffer to share with the compositor: \(why)"
        }
    }
}
