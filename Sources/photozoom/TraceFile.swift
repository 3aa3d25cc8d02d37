import App
import Foundation

/// `--trace FILE`: one JSON line per frame.
final class TraceFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw ScreenshotError(path: path, reason: "cannot create the trace file")
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Writes a line for every frame `app` runs.
    func follow(_ app: PhotoViewerApp) {
        app.frameObserver = { [handle] app in
            handle.write(Data((app.traceRecord.jsonLine + "\n").utf8))
        }
    }
}
