import Foundation
import TestSupport

/// sway, headless, with Xwayland, for one test: a Wayland desktop whose output refreshes at 144 Hz,
/// as a high-refresh laptop's does, and its Xwayland (`HeadlessSway` starts both, as `nobody`). Windows
/// float, keeping the size they ask for (tiled, sway would give them the whole output), without borders; a Wayland
/// client connects to `waylandSocket`, and `grab`/`typeKeys` read its screen and type into it. The
/// pointer hides half a second after it stops (the headless output draws it into what `grim` reads).
final class SwayServer: XServer {
    static var isInstalled: Bool { HeadlessSway.hasXwayland }
    /// The output's mode.
    static let mode = "1920x1080@144Hz"

    let display: String
    private let sway: HeadlessSway

    /// `clientDecorations`: Wayland windows draw their own (sway's `border csd`: it answers xdg-decoration
    /// with client-side, as GNOME's compositor, which offers no server-side ones, leaves them to the window).
    /// `outputScale`: the output's scale (sway's `scale`; 1.5 makes it 1280x720 in the layout).
    /// `secondOutputScale`: a second output, HEADLESS-2, 1920x1080 at 60 Hz right of the first, at this scale.
    /// `requestLog`: where its Xwayland's Wayland requests are logged (`HeadlessSway`).
    init(clientDecorations: Bool = false, outputScale: Double = 1, secondOutputScale: Double? = nil,
         requestLog: String? = nil) throws {
        sway = try HeadlessSway(config: """
            output HEADLESS-1 mode --custom \(SwayServer.mode) scale \(outputScale) pos 0 0
            output HEADLESS-2 mode --custom 1920x1080@60Hz scale \(secondOutputScale ?? 1) pos \(Int(1920 / outputScale)) 0
            for_window [class=".*"] floating enable
            for_window [app_id=".*"] floating enable\(clientDecorations ? ", border csd" : "")
            default_floating_border none
            seat * hide_cursor 500
            """, xwayland: true, requestLog: requestLog)
        display = sway.xDisplay ?? ""
        if secondOutputScale != nil { try command("create_output") }
    }

    var state: String { "Xwayland on \(display), sway " + (sway.isRunning ? "running" : "ended") }

    /// Its Xwayland ends with it.
    func kill() { sway.kill() }

    /// What a Wayland client of it needs in its environment.
    var waylandEnvironment: [String: String] { sway.waylandEnvironment }

    /// Where the content of the window with Wayland app id `appID` is on the output (surface units, inside
    /// any border), as sway's tree says.
    func rect(ofAppID appID: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let socket = sway.ipcSocket,
              let tree = try? DesktopTools.run("swaymsg", ["-t", "get_tree"], environment: ["SWAYSOCK": socket]),
              tree.status == 0, let root = try? JSONSerialization.jsonObject(with: tree.output) else { return nil }
        func find(_ node: Any) -> [String: Any]? {
            guard let node = node as? [String: Any] else { return nil }
            if node["app_id"] as? String == appID { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let found = find(child) { return found } }
            }
            return nil
        }
        guard let node = find(root), let outer = node["rect"] as? [String: Int], let inner = node["window_rect"] as? [String: Int],
              let x = outer["x"], let y = outer["y"], let dx = inner["x"], let dy = inner["y"],
              let w = inner["width"], let h = inner["height"] else { return nil }
        return (x + dx, y + dy, w, h)
    }

    /// Runs a sway command (`swaymsg`), as a user's key binding would.
    func command(_ line: String) throws {
        _ = try DesktopTools.run("swaymsg", [line], environment: ["SWAYSOCK": sway.ipcSocket ?? ""])
    }

    /// Asks the window with Wayland app id `appID` to close, as its close button or Super+Shift+Q does:
    /// sway's `kill` sends it `xdg_toplevel.close`.
    func close(appID: String) throws { try command("[app_id=\(appID)] kill") }

    /// Moves the floating window with Wayland app id `appID` to `x`, `y` on its output.
    func move(appID: String, toX x: Int, y: Int) throws { try command("[app_id=\(appID)] move position \(x) \(y)") }

    /// The output's pixels in `rect` (grim, through screencopy), as a PNG's bytes.
    func grab(_ rect: (x: Int, y: Int, width: Int, height: Int)) -> Data? {
        guard let shot = try? DesktopTools.run("grim", ["-g", "\(rect.x),\(rect.y) \(rect.width)x\(rect.height)", "-"],
                                               environment: waylandEnvironment),
              shot.status == 0 else { return nil }
        return shot.output
    }

    /// Types keys (X keysym names) into the focused window through a virtual keyboard (wtype), which
    /// waits a moment first: the window must see the new keyboard before its first key.
    /// `holding`: modifiers held around them (`ctrl`, `shift`, `alt`).
    func typeKeys(_ keys: [String], holding: [String] = []) throws {
        _ = try DesktopTools.run("wtype", ["-s", "300"] + holding.flatMap { ["-M", $0] } + keys.flatMap { ["-k", $0] }
                                 + holding.flatMap { ["-m", $0] }, environment: waylandEnvironment)
    }
}
