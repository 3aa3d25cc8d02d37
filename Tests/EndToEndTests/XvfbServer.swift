import Foundation
import Glibc

/// A private X server for one test: Xvfb picks a free display number and writes it to the
/// descriptor named by `-displayfd`. Killed when the test lets go of it.
final class XvfbServer: XServer {
    static let binary = "/usr/bin/Xvfb"
    let display: String
    private let process = Process()

    init(width: Int = 1600, height: Int = 1200) throws {
        guard FileManager.default.isExecutableFile(atPath: XvfbServer.binary) else { throw XvfbMissing() }
        let pipe = Pipe()
        // Foundation's Process hands down only descriptors 0–2: `exec … 3>&1` gives Xvfb the pipe as 3.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(XvfbServer.binary) -displayfd 3 -screen 0 \(width)x\(height)x24 -nolisten tcp 3>&1"]
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
    }

    /// Ends the server at once (SIGKILL: it may have inherited a blocked SIGTERM), as a crash would.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}

/// A display the tests start for themselves.
protocol XServer: AnyObject {
    /// `:N`, for DISPLAY.
    var display: String { get }
    func kill()
}

struct XvfbMissing: Error, CustomStringConvertible {
    var description: String { "Xvfb did not start: install it (make test does: apt-get install xvfb)" }
}
