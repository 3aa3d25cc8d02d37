import Foundation
import Glibc
import TestSupport

/// A headless Wayland compositor (weston) with Xwayland, for one test: X clients connect to the
/// display weston names in its log, and their windows are Wayland surfaces, as on a Linux tablet.
final class WestonServer: XServer {
    static var isInstalled: Bool { DesktopTools.has("weston") && DesktopTools.has("Xwayland") }

    let display: String
    private let process = Process()
    private let runtime: TemporaryFolder

    init() throws {
        // weston binds its X socket in /tmp/.X11-unix but, unlike the X servers, does not make the
        // folder: on a machine where no X server ran yet it fails. Made as every X server makes it.
        if mkdir("/tmp/.X11-unix", 0o1777) == 0 { chmod("/tmp/.X11-unix", 0o1777) }
        runtime = try TemporaryFolder()
        chmod(runtime.path, 0o700)   // XDG_RUNTIME_DIR must be the user's alone
        let log = Pipe()
        process.executableURL = URL(fileURLWithPath: DesktopTools.path("weston")!)
        process.arguments = ["--backend=headless-backend.so", "--xwayland", "--socket=photozoom-test", "--width=1024", "--height=768",
                             "--idle-time=0"]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime.path
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        process.environment = env
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // "xserver listening on display :N": Xwayland starts when the first X client connects.
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: #"listening on display :\d+"#, options: .regularExpression) {
                display = String(text[range].split(separator: " ").last!)
                // Keep draining its log, so that weston never blocks on a full pipe.
                log.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
                return
            }
        }
        process.killNow()
        throw WestonFailed(log: text)
    }

    var state: String { "Xwayland on \(display), weston " + (process.isRunning ? "running" : "ended") }

    /// What a Wayland client of it needs in its environment.
    var waylandEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": runtime.path + "/photozoom-test", "XDG_RUNTIME_DIR": runtime.path]
    }

    /// Xwayland goes with its compositor.
    func kill() { process.killNow() }

    deinit { kill() }
}

struct WestonFailed: Error, CustomStringConvertible {
    let log: String
    var description: String { "weston did not start its Xwayland display: \(log)" }
}
