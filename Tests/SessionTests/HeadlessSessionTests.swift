import App
import Foundation
import Geometry
import Library
import Logging
import Outputs
import Scripting
import SystemPackage
import Testing
import TestSupport
@testable import Session

/// A headless run as its parts decide it: the app's requests answered, the settled screen written, a line of the
/// trace for every frame, and a script's `key q` ending the run before its settle.
@Suite struct HeadlessSessionTests {
    static let logger = Logger(label: "HeadlessSessionTests")

    static func settings(script: ScriptTimeline? = nil, trace: TraceFile? = nil, screenshot: String? = nil) -> RunSettings {
        RunSettings(size: Size(width: 320, height: 240), scale: nil, fps: 30, motion: .fluid, reduceMotion: false,
                    library: PhotoSelection.collect([FilePath(TestImages.bundledFolder)], logger: logger), trash: nil,
                    writesPhotos: false, thumbnails: nil, logger: logger, script: script, trace: trace, screenshot: screenshot)
    }

    @Test func requestsAreAnsweredAsAHeadlessRunCan() throws {
        let session = try HeadlessSession(Self.settings())
        #expect(try session.perform(.quit) == .end)
        #expect(try session.perform(.toggleFullScreen) == .goOn, "no window to fill: the run goes on")
        #expect(try session.perform(.copy(session.app.photos[0])) == .goOn, "no clipboard: said, and the run goes on")
    }

    /// A tap opens a photo; the settled viewer is written at the window's size (scale 1 unless asked), and the trace
    /// has a line for every frame the run stepped, each a JSON object with the frame's time, the last in the viewer.
    @Test func theSettledScreenIsWrittenAndEveryFrameTraced() throws {
        let folder = try TemporaryFolder()
        let shot = folder.path + "/settled.png", tracePath = folder.path + "/trace.jsonl"
        let script = ScriptTimeline(try ScriptParser.parse("tap 50 100\nwait 600\n").map(\.command), frameInterval: 1.0 / 30)
        let session = try HeadlessSession(Self.settings(script: script, trace: try TraceFile(path: tracePath), screenshot: shot))
        try session.play()
        let png = try #require(FileManager.default.contents(atPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((width, height) == (320, 240))
        #expect(session.app.isSettled)
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        let records = try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
        let times = try records.map { try #require($0["time"] as? Double) }
        #expect(times == times.sorted() && Set(times).count == times.count, "one line a frame, in time order")
        #expect(records.last?["screen"] as? String == "viewer" && session.app.viewer != nil)
    }

    /// `key q` in a script ends the run there: the screen is not settled again after it, and what the script would
    /// have done later is not done.
    @Test func aScriptsQuitEndsTheRun() throws {
        let folder = try TemporaryFolder()
        let late = folder.path + "/late.png"
        let script = ScriptTimeline(try ScriptParser.parse("key q\nwait 100\nscreenshot \(late)\n").map(\.command), frameInterval: 1.0 / 30)
        let session = try HeadlessSession(Self.settings(script: script))
        try session.play()
        #expect(!FileManager.default.fileExists(atPath: late), "the screenshot after the quit was not taken")
    }
}
