import Foundation
import Glibc
import TestSupport

/// A small GTK 3 window (Debian's Python bindings, a program beside the tests) on the other side of a
/// drag, made by a toolkit rather than by the test: a file manager's window that offers `text/uri-list`
/// when dragged, or one that takes drops.
final class GTKProgram {
    static let dragSourceID = "photozoom-drag-source"
    static let dropTargetID = "photozoom-drop-target"
    static var isInstalled: Bool {
        (try? DesktopTools.run("python3", ["-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"]).status) == 0
    }

    private let process = Process()
    private let output = Pipe()
    private let log = OutputCollector()

    /// A window that offers `uris` when dragged.
    static func dragSource(offering uris: [String], environment: [String: String]) throws -> GTKProgram {
        try GTKProgram("gtk-drag-source.py", [dragSourceID] + uris, environment: environment)
    }

    /// A window that takes a drop's `text/uri-list` and `image/png` into `folder` (`dropped.uris`, `dropped.png`).
    static func dropTarget(into folder: String, environment: [String: String]) throws -> GTKProgram {
        try GTKProgram("gtk-drop-target.py", [dropTargetID, folder], environment: environment)
    }

    /// Runs `Tests/Tools/tool` with Debian's python3, a Wayland client of the compositor `environment` names.
    private init(_ tool: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try DesktopTools.path("python3") ?? { throw DesktopTools.ToolMissing(name: "python3") }())
        process.arguments = [TestImages.repository.appendingPathComponent("Tests/Tools/\(tool)").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["GDK_BACKEND": "wayland"]) { $1 }) { $1 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let collector = log
        output.fileHandleForReading.readabilityHandler = { collector.append($0.availableData) }
        try process.run()
    }

    /// Killed: GTK's main loop, in Python, lets SIGTERM wait.
    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// What it printed so far ("drag ended" when a drag it offered ended; "dropped" when it took a drop).
    var said: String { log.text }
}
