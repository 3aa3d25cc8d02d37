import Foundation
import Glibc

/// sway on its headless backend (pixman, no input devices), for a test or a bench: a Wayland
/// compositor whose output runs at any rate. sway refuses to run as root, so it runs as `nobody` with a
/// runtime folder of its own (mode 700, the user's); root's clients can still connect to its socket.
public final class HeadlessSway {
    public static let executable = "/usr/bin/sway"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Its XDG_RUNTIME_DIR: the Wayland socket, the IPC socket and the config are there.
    public let runtime: TemporaryFolder
    private let process = Process()

    /// Starts sway with `config` (its lines) and waits up to 20 s for its Wayland socket.
    public init(config: String) throws {
        runtime = try TemporaryFolder()
        let nobody: uid_t = 65534
        try runtime.write("config", Array(config.utf8))
        for path in [runtime.path, runtime.path + "/config"] { chown(path, nobody, nobody) }
        chmod(runtime.path, 0o700)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", Self.executable, "-c", runtime.path + "/config"]
        process.environment = ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin",
                               "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while waylandSocket == nil, process.isRunning, Date() < deadline { usleep(20_000) }
        guard waylandSocket != nil else {
            kill()
            throw HeadlessSwayFailed()
        }
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
    public var description: String { "sway did not start (headless, as nobody): is it installed? (apt-get install sway)" }
}
