import Foundation
import Glibc

/// A PulseAudio server of a test's own, in a scratch folder: one null sink ("out", 48 kHz stereo) and a socket that any
/// client may use, found through `environment` (`PULSE_SERVER`). What is played to it can be recorded from the sink's
/// monitor with parec. Ended, with its folder, when let go. `PulseServer(pipeWire: ())` is PipeWire's pulse server
/// instead, as today's desktops run it: pipewire, WirePlumber and pipewire-pulse on a D-Bus session of their own.
public final class PulseServer {
    public static var isInstalled: Bool { DesktopTools.has("pulseaudio") && DesktopTools.has("parec") && DesktopTools.has("pacat") }
    public static var isPipeWireInstalled: Bool {
        ["pipewire", "pipewire-pulse", "wireplumber", "dbus-run-session", "pactl", "parec", "pacat"].allSatisfy(DesktopTools.has)
    }

    private let folder: TemporaryFolder
    public let socket: String
    /// The daemon's process (it detaches: as a child of the test, its children's exits went unreaped); for PipeWire, its
    /// session's process group.
    private var pid: pid_t = 0
    private var isGroup = false

    /// PipeWire's pulse server, its null sink made through it (`pactl`) and made the default.
    public init(pipeWire: Void) throws {
        folder = try TemporaryFolder()
        let runtime = folder.path + "/runtime"
        socket = runtime + "/pulse/native"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        // In a session of its own (setsid), the shell's pid written first: its process group is the whole server's.
        // Started with system(3), which waits for its own child: Foundation's Process never saw this shell end.
        let environment = ["HOME": folder.path, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": folder.path + "/config"]
        let script = "echo $$ > \(folder.path)/pid; pipewire & sleep 0.3; wireplumber & pipewire-pulse & wait"
        let settings = environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let status = system("\(settings) setsid -f dbus-run-session -- sh -c '\(script)' </dev/null >/dev/null 2>&1")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        let shell = (try? String(contentsOfFile: folder.path + "/pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        (pid, isGroup) = (shell > 0 ? getpgid(shell) : 0, true)
        let pulse = environment.merging(["PULSE_SERVER": "unix:" + socket]) { $1 }
        guard status == 0, pid > 0,
              try DesktopTools.run("pactl", ["load-module", "module-null-sink", "sink_name=out", "rate=48000", "channels=2"], environment: pulse).status == 0,
              try DesktopTools.run("pactl", ["set-default-sink", "out"], environment: pulse).status == 0 else {
            if pid > 0 { kill(-pid, SIGKILL) }
            throw ServerError("PipeWire's pulse server did not start (its socket \(socket))")
        }
    }

    public init() throws {
        folder = try TemporaryFolder()
        socket = folder.path + "/native"
        let runtime = folder.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        // No configuration of the machine's (-n), no shared memory, and never idle: the sink runs while the test does.
        let arguments = ["--daemonize=yes", "--use-pid-file=yes", "-n", "--exit-idle-time=-1", "--disable-shm=yes",
                         "-L", "module-null-sink sink_name=out rate=48000 channels=2",
                         "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1"]
        let run = try DesktopTools.run("pulseaudio", arguments, environment: ["HOME": folder.path, "XDG_RUNTIME_DIR": runtime,
                                                                             "PULSE_RUNTIME_PATH": runtime])
        let pidFile = runtime + "/pid"
        pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        guard run.status == 0, pid > 0, FileManager.default.fileExists(atPath: socket) else {
            if pid > 0 { kill(pid, SIGKILL) }
            throw ServerError("pulseaudio did not start (status \(run.status), its socket \(socket))")
        }
    }

    deinit { if pid > 0 { kill(isGroup ? -pid : pid, SIGKILL) } }

    /// What a client needs to reach it.
    public var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    /// Records what the sink plays from now until `stop` is called on what this returns.
    public func record() throws -> Recording { try Recording(server: self, into: folder.path + "/recording-\(UUID().uuidString).raw") }

    /// The sink's monitor being recorded by parec: 16-bit stereo at 48 kHz.
    public final class Recording {
        private let process = Process()
        private let path: String
        public let started = Date()

        /// Zeros played all along: the null sink renders only while something plays, and a pause is to be heard as
        /// silence at its time, not as a gap.
        private let zeros = Process()

        init(server: PulseServer, into path: String) throws {
            self.path = path
            zeros.executableURL = URL(fileURLWithPath: DesktopTools.path("pacat") ?? "/usr/bin/pacat")
            zeros.arguments = ["--raw", "--format=s16le", "--rate=48000", "--channels=2", "--latency-msec=20", "/dev/zero"]
            zeros.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
            zeros.standardOutput = FileHandle.nullDevice
            zeros.standardError = FileHandle.nullDevice
            zeros.standardInput = FileHandle.nullDevice
            try zeros.run()
            FileManager.default.createFile(atPath: path, contents: nil)
            process.executableURL = URL(fileURLWithPath: DesktopTools.path("parec") ?? "/usr/bin/parec")
            process.arguments = ["--device=out.monitor", "--format=s16le", "--rate=48000", "--channels=2", "--raw", "--latency-msec=20"]
            process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        deinit {
            if process.isRunning { process.killNow() }
            zeros.killNow()
        }

        /// Stops recording: the left channel's samples.
        public func stop() throws -> [Int16] {
            // SIGKILL: Foundation starts its children with SIGTERM blocked. parec writes as it records.
            process.killNow()
            zeros.killNow()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            return bytes.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: Int16.self)
                return stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
            }
        }
    }

    /// The loudness (root mean square) of `samples[range]` of a recording at 48 kHz, by seconds.
    public static func loudness(_ samples: [Int16], from start: Double, to end: Double) -> Double {
        let from = max(0, Int(start * 48000)), to = min(samples.count, Int(end * 48000))
        guard to > from else { return 0 }
        let sum = samples[from..<to].reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(to - from)).squareRoot()
    }

    /// The tone's pitch in `samples[range]`, Hz, from its zero crossings.
    public static func pitch(_ samples: [Int16], from start: Double, to end: Double) -> Double {
        let from = max(1, Int(start * 48000)), to = min(samples.count, Int(end * 48000))
        guard to > from else { return 0 }
        let crossings = (from..<to).filter { (samples[$0 - 1] < 0) != (samples[$0] < 0) }.count
        return Double(crossings) / 2 / (Double(to - from) / 48000)
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
