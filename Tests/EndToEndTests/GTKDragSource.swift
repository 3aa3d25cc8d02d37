import Foundation
import Glibc
import TestSupport

/// A small GTK 3 window (Debian's Python bindings) that offers `text/uri-list` when dragged, as a file
/// manager does: the other side of a drop, made by a toolkit rather than by the test.
final class GTKDragSource {
    static let appID = "photozoom-drag-source"
    static var isInstalled: Bool {
        (try? DesktopTools.run("python3", ["-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"]).status) == 0
    }

    private let process = Process()
    private let output = Pipe()
    private let log = OutputCollector()

    /// The program, beside the tests (Python, run by Debian's python3 with its GTK bindings).
    private static let program = TestImages.repository.appendingPathComponent("Tests/Tools/gtk-drag-source.py").path

    /// Opens the window, a Wayland client of the compositor `environment` names.
    init(offering uris: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try DesktopTools.path("python3") ?? { throw DesktopTools.ToolMissing(name: "python3") }())
        process.arguments = [Self.program, Self.appID] + uris
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

    /// Whether GTK said the drag ended (the drop was taken, or refused).
    var ended: Bool { log.text.contains("drag ended") }
}
