import Foundation

/// The desktop programs some tests need beside Xvfb (`make test` and `.ci/run` install them); a test
/// that lacks one is skipped, and its output names the package.
public enum DesktopTools {
    /// Debian's folders first, then the search path (pip puts vncdotool's `vncdo` where its Python is).
    public static func path(_ name: String) -> String? {
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/" }
        return (["/usr/bin/", "/usr/local/bin/", "/bin/"] + searchPath).map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static func has(_ name: String) -> Bool { path(name) != nil }

    /// Runs a tool to completion; its status and standard output. Standard input is empty.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double = 30) throws
        -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(name) ?? { throw ToolMissing(name: name) }())
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read while it runs: a big output would fill the pipe and stop it.
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box(), read = DispatchSemaphore(value: 0)
        Thread {
            box.data = output.fileHandleForReading.readDataToEndOfFile()
            read.signal()
        }.start()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        read.wait()   // the output's end: the reader is done with `box`
        return (process.terminationStatus, box.data)
    }

    public struct ToolMissing: Error, CustomStringConvertible {
        public let name: String
        public init(name: String) { self.name = name }
        public var description: String { "\(name) is not installed" }
    }
}
