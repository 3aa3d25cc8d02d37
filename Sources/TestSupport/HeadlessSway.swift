import Foundation
import Glibc

/// sway on its headless backend (pixman, no input devices), for a test or a bench: a Wayland
/// compositor whose output runs at any rate. sway refuses to run as root, so it runs as `nobody` with a
/// runtime folder of its own (mode 700, the user's); root's clients can still connect to its socket.
/// With Xwayland, that server (run by `nobody` too) lets root's X clients in through `xhost`, which
/// sway runs at start before it names the display in a file (`xDisplay`).
public final class HeadlessSway {
    public static let executable = "/usr/bin/sway"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    public static var hasXwayland: Bool {
        isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/Xwayland")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/xhost")
    }

    /// Its XDG_RUNTIME_DIR: the Wayland socket, the IPC socket and the config are there.
    public let runtime: TemporaryFolder
    /// Its Xwayland's display (`:N`), when started with one.
    public private(set) var xDisplay: String?
    private let process = Process()

    /// Starts sway with `config` (its lines) and waits up to 20 s for its Wayland socket (and Xwayland's
    /// display). `requestLog`: where the requests of its clients that inherit its environment (its
    /// Xwayland) are logged, as libwayland does with WAYLAND_DEBUG=client (`WaylandRequestLog` reads it).
    public init(config: String, xwayland: Bool = false, requestLog: String? = nil) throws {
        runtime = try TemporaryFolder()
        let nobody: uid_t = 65534
        let displayFile = runtime.path + "/display"
        let lines = config + (xwayland ? """

            xwayland enable
            exec sh -c 'xhost +si:localuser:root >/dev/null && echo $DISPLAY > "\(displayFile).part" && mv "\(displayFile).part" "\(displayFile)"'
            """ : "")
        try runtime.write("config", Array(lines.utf8))
        // Xwayland, run by `nobody`, makes its socket there: the folder must be everyone's, as X makes it.
        if xwayland, mkdir("/tmp/.X11-unix", 0o1777) == 0 { chmod("/tmp/.X11-unix", 0o1777) }
        for path in [runtime.path, runtime.path + "/config"] { chown(path, nobody, nobody) }
        chmod(runtime.path, 0o700)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", Self.executable, "-c", runtime.path + "/config"]
        process.environment = ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin",
                               "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
            .merging(requestLog == nil ? [:] : ["WAYLAND_DEBUG": "client"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        if let requestLog, FileManager.default.createFile(atPath: requestLog, contents: nil),
           let log = FileHandle(forWritingAtPath: requestLog) {
            process.standardError = log
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline {
            if !xwayland, waylandSocket != nil { return }
            if let text = try? String(contentsOfFile: displayFile, encoding: .utf8), text.hasPrefix(":") {
                xDisplay = text.trimmingCharacters(in: .whitespacesAndNewlines)
                return
            }
            usleep(20_000)
        }
        let running = process.isRunning
        kill()
        throw HeadlessSwayFailed(running: running, xwayland: xwayland)
    }

    deinit { kill() }

    public var isRunning: Bool { process.isRunning }

    /// Its Wayland socket (an absolute path serves as WAYLAND_DISPLAY).
    public var waylandSocket: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
        return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.map { runtime.path + "/" + $0 }
    }

    /// Its IPC socket (SWAYSOCK), once it made one.
    public var ipcSocket: String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []).first { $0.hasPrefix("sway-ipc.") }
            .map { runtime.path + "/" + $0 }
    }

    /// What a Wayland client of it needs in its environment.
    public var waylandEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": waylandSocket ?? runtime.path + "/wayland-1", "XDG_RUNTIME_DIR": runtime.path]
    }

    /// Ends it at once (its Xwayland, if any, with it).
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

public struct HeadlessSwayFailed: Error, CustomStringConvertible {
    let running: Bool
    let xwayland: Bool
    public var description: String {
        xwayland ? "sway did not name its Xwayland display (sway \(running ? "still running" : "ended"))"
            : "sway did not start (headless, as nobody): is it installed? (apt-get install sway)"
    }
}
