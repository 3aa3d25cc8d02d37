import CX11
import Foundation
import Pixels
import Testing
import TestSupport

/// One test's X server, the test's own connection to it, a scratch folder (the viewers' current
/// folder) and the viewers it started, which live as long as the session.
final class WindowSession {
    let server: any XServer
    private(set) var client: XTestClient!
    let scratch: URL
    private var viewers: [ViewerProcess] = []

    init(server: (any XServer)? = nil) throws {
        self.server = try server ?? XvfbServer()
        do { client = try XTestClient(display: self.server.display) } catch {
            throw ClientError("\(error): \(self.server.state)")
        }
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// The test's connection closes before its server goes: Xlib ends the process on a lost one.
    deinit {
        viewers.removeAll()
        client = nil
        server.kill()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Starts the viewer on this server and waits for its window.
    func launch(_ arguments: [String], environment: [String: String] = [:],
                sourceLocation: SourceLocation = #_sourceLocation) throws -> (ViewerProcess, Window) {
        var env = environment
        env["DISPLAY"] = server.display
        let viewer = try ViewerProcess(arguments, environment: env, directory: scratch)
        viewers.append(viewer)
        let window = try #require(client.window(ofProcess: viewer.pid), "no window appeared; stderr: \(viewer.standardError)",
                                  sourceLocation: sourceLocation)
        return (viewer, window)
    }

    /// Waits up to `seconds` for `condition`.
    func wait(seconds: Double = 20, until condition: () -> Bool) -> Bool { Self.wait(seconds: seconds, until: condition) }

    static func wait(seconds: Double = 20, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// The window's title (`_NET_WM_NAME`).
    func title(of window: Window) -> String? {
        client.property(window, "_NET_WM_NAME").map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// Reads the window until it shows `expected` (thumbnails arrive over time), up to `seconds`: every pixel
    /// within `channelTolerance`, or all but `differing` of them (the same photo decoded at another size).
    func expectWindow(_ window: Window, toShow expected: PixelImage, seconds: Double = 30, channelTolerance: Int = 1,
                      differing allowed: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last: PixelComparison?
        repeat {
            if let shown = client.capture(window), shown.width == expected.width, shown.height == expected.height {
                let comparison = PixelComparison(shown, expected, channelTolerance: channelTolerance)
                if comparison.differing <= allowed { return }
                last = comparison
            }
            usleep(100_000)
        } while Date() < deadline
        // Outside the scratch folder, which goes with the session: what was shown, what was expected, and the diff.
        let diff = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-window-\(UUID().uuidString)-diff.png")
        if let last {
            try Data(last.diffImage.pngData()).write(to: diff)
            if let shown = client.capture(window) {
                try Data(shown.pngData()).write(to: diff.deletingPathExtension().appendingPathExtension("shown.png"))
            }
            try Data(expected.pngData()).write(to: diff.deletingPathExtension().appendingPathExtension("expected.png"))
        }
        Issue.record("the window does not show the headless frame: \(last.map { "\($0.differing) pixels differ, diff in \(diff.path)" } ?? "size differs")",
                     sourceLocation: sourceLocation)
    }
}
