import Foundation
import Glibc
import TestSupport

/// wayvnc serving a headless sway, and vncdotool driving it: input from outside the compositor, as a
/// remote desktop (or a user's hands) gives it. wayvnc turns what the VNC client sends into the
/// compositor's virtual pointer and keyboard, which reach a Wayland window as `wl_pointer` and
/// `wl_keyboard` events. It listens on a Unix socket in a folder of the test's (no port to share with
/// other tests run alongside).
final class WayVNCServer {
    static var isInstalled: Bool { DesktopTools.has("wayvnc") && DesktopTools.has("vncdo") }

    private let folder: TemporaryFolder
    private let process = Process()
    private var socket: String { folder.path + "/vnc.sock" }

    /// Starts wayvnc on `sway`'s output and waits up to 10 s for its socket.
    init(serving sway: SwayServer) throws {
        folder = try TemporaryFolder()
        process.executableURL = URL(fileURLWithPath: try DesktopTools.path("wayvnc") ?? { throw DesktopTools.ToolMissing(name: "wayvnc") }())
        process.arguments = ["--unix-socket", socket]
        process.environment = ProcessInfo.processInfo.environment.merging(sway.waylandEnvironment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), process.isRunning, Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socket) else { throw WayVNCFailed(running: process.isRunning) }
    }

    /// Killed: on SIGTERM wayvnc 0.5 waits on the compositor and may not end.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Sends vncdo's `commands` (`move X Y`, `click 1`, `mousedown 1`, `mouseup 1`, `key q`), coordinates
    /// on the output, 10 ms apart.
    func send(_ commands: [String]) throws {
        let (status, _) = try DesktopTools.run("vncdo", ["--server", socket] + commands, seconds: 60)
        guard status == 0 else { throw VNCClientFailed(commands: commands, status: status) }
    }

    /// A steady drag's moves from `start` to `end` in `steps` (vncdo's own `drag` pauses 0.2 s a pixel).
    static func moves(from start: (x: Int, y: Int), to end: (x: Int, y: Int), steps: Int = 20) -> [String] {
        (1...steps).flatMap { step in
            ["move", "\(start.x + (end.x - start.x) * step / steps)", "\(start.y + (end.y - start.y) * step / steps)"]
        }
    }
}

struct WayVNCFailed: Error, CustomStringConvertible {
    let running: Bool
    var description: String { "wayvnc made no socket (wayvnc \(running ? "still running" : "ended"))" }
}

struct VNCClientFailed: Error, CustomStringConvertible {
    let commands: [String]
    let status: Int32
    var description: String { "vncdo \(commands.joined(separator: " ")) ended with status \(status)" }
}
