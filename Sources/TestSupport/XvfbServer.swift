import CX11
import Foundation
import Glibc

/// A private X server for one test: Xvfb picks a free display number and writes it to the
/// descriptor named by `-displayfd`. Killed when the test lets go of it.
///
/// `-noreset`: by default an X server resets when its last client leaves, and a client that connects
/// during the reset is refused ("connection reset by peer"). The test's own connection and the
/// viewer come and go at their own times, and a client of another test that still had this display
/// number can knock on it too: each such gap failed a test now and then as "cannot open the X display".
public final class XvfbServer: XServer {
    public static let binary = "/usr/bin/Xvfb"
    public let display: String
    private let process = Process()
    /// Xvfb's own messages (its standard error), for a test's failure message.
    private let logFolder: TemporaryFolder

    /// `asAnotherUser`: the server runs as `nobody` (with access control off, so this root process's
    /// clients may connect), as a server of another user does (sway's Xwayland, `ssh -X`): it refuses
    /// to attach a shared-memory segment it can't read.
    public init(width: Int = 1600, height: Int = 1200, asAnotherUser: Bool = false) throws {
        guard FileManager.default.isExecutableFile(atPath: XvfbServer.binary) else { throw XvfbMissing() }
        logFolder = try TemporaryFolder()
        let pipe = Pipe()
        // Foundation's Process hands down only descriptors 0–2: `exec … 3>&1` gives Xvfb the pipe as 3.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let user = asAnotherUser ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let access = asAnotherUser ? " -ac" : ""
        process.arguments = ["-c", "exec \(user)\(XvfbServer.binary) -displayfd 3 -noreset -screen 0 \(width)x\(height)x24 -nolisten tcp\(access) 3>&1 2>\(logFolder.path)/Xvfb.log"]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var number = ""
        while !number.hasSuffix("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw XvfbMissing() }
            number += String(decoding: chunk, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        // Xvfb names its display once it is ready; a display nobody answers on would fail the test
        // far from here, as the viewer's "cannot open the X display".
        guard let probe = XOpenDisplay(display) else {
            defer { kill() }
            throw XvfbFailed(state: state)
        }
        XCloseDisplay(probe)
    }

    /// What Xvfb wrote to its standard error so far.
    private var log: String { (try? String(contentsOfFile: logFolder.path + "/Xvfb.log", encoding: .utf8)) ?? "" }

    public var state: String {
        let end = process.isRunning ? "running"
            : process.terminationReason == .uncaughtSignal ? "killed by signal \(process.terminationStatus)"
            : "exited with status \(process.terminationStatus)"
        return "Xvfb on \(display), \(end); its log: \(log)"
    }

    /// Ends the server at once (SIGKILL: it may have inherited a blocked SIGTERM), as a crash would.
    public func kill() { process.killNow() }

    deinit { kill() }
}

/// A display the tests start for themselves.
public protocol XServer: AnyObject {
    /// `:N`, for DISPLAY.
    var display: String { get }
    /// Whether it still runs, or how it ended, and its log: for a failure message.
    var state: String { get }
    func kill()
}

public struct XvfbMissing: Error, CustomStringConvertible {
    public var description: String { "Xvfb did not start: install it (make test does: apt-get install xvfb)" }
}

public struct XvfbFailed: Error, CustomStringConvertible {
    let state: String
    public var description: String { "Xvfb named its display but did not answer on it: \(state)" }
}
