import Foundation
import Testing
import TestSupport

/// The built `photozoom` binary, run as a user would run it.
final class ViewerProcess {
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("photozoom")

    let process = Process()
    private let errorPipe = Pipe()
    private let errorData = OutputCollector()
    /// A cache folder of its own (the thumbnail cache goes there), unless the test gives XDG_CACHE_HOME.
    private let cacheHome: TemporaryFolder?
    /// A private XDG_DATA_HOME too: a test's favorites never reach the user's.
    private let dataHome: TemporaryFolder?

    /// Starts `photozoom arguments…` with `environment` added to a clean one (no DISPLAY, WAYLAND_DISPLAY or
    /// GDK_SCALE unless given: the private Xvfb has no Xft.dpi, so windows are at scale 1), and a
    /// private XDG_CACHE_HOME and XDG_DATA_HOME: a test never writes into the user's thumbnail cache or data.
    /// `input`, when given, is its standard input. `asAUser`: run as root, it is started without
    /// root's power to read and write any file (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH),
    /// so that a file's permissions hold for it as they would for a user.
    init(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, input: Data? = nil,
         asAUser: Bool = false) throws {
        if asAUser && geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--bounding-set=-dac_override,-dac_read_search", "--", ViewerProcess.executable.path] + arguments
        } else {
            process.executableURL = ViewerProcess.executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["GDK_SCALE"] = nil
        // `make sanitize` turns leak checks off for the test runner (Foundation's Process and Swift's
        // packed references look leaked to it); the viewer keeps them, as its own process.
        env["ASAN_OPTIONS"] = nil
        cacheHome = environment["XDG_CACHE_HOME"] == nil ? try TemporaryFolder() : nil
        env["XDG_CACHE_HOME"] = cacheHome?.path
        dataHome = environment["XDG_DATA_HOME"] == nil ? try TemporaryFolder() : nil
        env["XDG_DATA_HOME"] = dataHome?.path
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorPipe
        let collector = errorData
        errorPipe.fileHandleForReading.readabilityHandler = { handle in collector.append(handle.availableData) }
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        if let input, let inputPipe {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
    }

    deinit {
        // The handler holds the pipe's reading end (and its dispatch source) until it is let go.
        errorPipe.fileHandleForReading.readabilityHandler = nil
        guard process.isRunning else { return }
        process.terminate()
        if waitForExit(seconds: 5) == nil {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits for the process to end, up to `seconds`; nil if it is still running then.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        usleep(50_000)   // let the stderr reader catch the last lines
        return process.terminationStatus
    }

    /// What the process wrote to standard error so far.
    var standardError: String { errorData.text }

    /// Runs to completion (at most `seconds`) and returns the exit status and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, input: Data? = nil,
                    seconds: Double = 60, asAUser: Bool = false) throws -> (Int32, String) {
        let viewer = try ViewerProcess(arguments, environment: environment, directory: directory, input: input, asAUser: asAUser)
        let status = try #require(viewer.waitForExit(seconds: seconds), "photozoom \(arguments) did not finish")
        return (status, viewer.standardError)
    }
}

/// What a child process writes to a pipe, gathered as it comes.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
