import Foundation
import Glibc
import TestSupport

/// sway, headless, with Xwayland, for one test: a Wayland desktop whose output refreshes at 144 Hz,
/// as a high-refresh laptop's does. sway refuses to run as root, so it runs as `nobody` with a runtime
/// folder of its own; its Xwayland (run by that user too) lets this root process's clients in through
/// `xhost`, which sway runs at start, then names its display in a file. Windows float, keeping the
/// size they ask for (tiled, sway would give them the whole output).
final class SwayServer: XServer {
    static var isInstalled: Bool { DesktopTools.has("sway") && DesktopTools.has("Xwayland") && DesktopTools.has("xhost") }
    /// The output's mode.
    static let mode = "1920x1080@144Hz"

    let display: String
    private let process = Process()
    private let runtime: TemporaryFolder

    init() throws {
        if mkdir("/tmp/.X11-unix", 0o1777) == 0 { chmod("/tmp/.X11-unix", 0o1777) }
        runtime = try TemporaryFolder()
        let nobody: uid_t = 65534
        let named = runtime.path + "/display"
        try runtime.write("config", Array("""
            output HEADLESS-1 mode --custom \(SwayServer.mode)
            xwayland enable
            for_window [class=".*"] floating enable
            exec sh -c 'xhost +si:localuser:root >/dev/null && echo $DISPLAY > \(named).part && mv \(named).part \(named)'
            """.utf8))
        // XDG_RUNTIME_DIR must be the user's alone.
        for path in [runtime.path, runtime.path + "/config"] { chown(path, nobody, nobody) }
        chmod(runtime.path, 0o700)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", DesktopTools.path("sway")!,
                             "-c", runtime.path + "/config"]
        process.environment = ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin",
                               "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOfFile: named, encoding: .utf8), text.hasPrefix(":") {
                display = text.trimmingCharacters(in: .whitespacesAndNewlines)
                return
            }
            usleep(50_000)
        }
        let ran = process.isRunning
        process.killNow()
        throw SwayFailed(running: ran)
    }

    var state: String { "Xwayland on \(display), sway " + (process.isRunning ? "running" : "ended") }

    /// Its Xwayland ends with it.
    func kill() { process.killNow() }

    deinit { kill() }
}

struct SwayFailed: Error, CustomStringConvertible {
    let running: Bool
    var description: String { "sway did not name its Xwayland display (sway \(running ? "still running" : "ended"))" }
}
