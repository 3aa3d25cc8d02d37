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

    /// Headless: writes a line for every frame `app` runs.
    func follow(_ app: PhotoViewerApp) {
        app.frameObserver = { [weak self] app in self?.write(app.traceRecord) }
    }

    /// In the window: one line for a frame once it is presented, with what it cost.
    func write(_ record: MotionTraceRecord) {
        handle.write(Data((record.jsonLine + "\n").utf8))
    }
}
