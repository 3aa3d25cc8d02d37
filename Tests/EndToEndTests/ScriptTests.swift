import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// `photozoom --headless --script FILE`: scripted input on the manual clock.
@Suite struct ScriptTests {
    /// Removed when the test is over.
    private let temporary: TemporaryFolder
    let scratch: URL
    let manyPhotos: URL

    init() throws {
        temporary = try TemporaryFolder()
        scratch = temporary.url
        manyPhotos = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: manyPhotos, withIntermediateDirectories: true)
        let bundled = TestImages.bundledFolder
        let names = try FileManager.default.contentsOfDirectory(atPath: bundled).filter { !$0.hasSuffix(".md") }.sorted()
        for i in 0..<90 {   // 90 photos: a grid several screens long
            let name = names[i % names.count]
            try FileManager.default.createSymbolicLink(atPath: manyPhotos.appendingPathComponent(String(format: "%02d-%@", i, name)).path,
                                                       withDestinationPath: "\(bundled)/\(name)")
        }
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func run(_ script: String, _ extra: [String] = []) throws -> (Int32, String) {
        try ViewerProcess.run(["--headless", "--size", "400x600", "--script", script] + extra + [manyPhotos.path])
    }

    /// The top edge on screen of node `name` (the grid's content, "grid.cells", moves as it scrolls), from a `dump`.
    func top(of name: String, in dump: String) throws -> Double {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dump))) as! [String: Any]
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["name"] as? String == name { return node }
            return (node["children"] as? [[String: Any]] ?? []).lazy.compactMap(find).first
        }
        let node = try #require(find(json), "no \(name) in the dump")
        return try #require((node["frame"] as? [Double])?[1])
    }

    @Test func sameScriptGivesByteIdenticalFrames() throws {
        let script = try write("flick.txt", """
            down 200 150
            move 200 400 80     # a quick flick down, back through the older photos
            up
            wait 150
            screenshot \(scratch.path)/mid-RUN.png
            """)
        for run in ["1", "2"] {
            let text = try String(contentsOfFile: script, encoding: .utf8).replacingOccurrences(of: "RUN", with: run)
            let (status, errors) = try self.run(try write("flick-\(run).txt", text),
                                                ["--screenshot", "\(scratch.path)/end-\(run).png"])
            #expect(status == 0, "\(errors)")
        }
        for name in ["mid", "end"] {
            let a = try Data(contentsOf: scratch.appendingPathComponent("\(name)-1.png"))
            let b = try Data(contentsOf: scratch.appendingPathComponent("\(name)-2.png"))
            #expect(a == b, "\(name) frames differ")
        }
        // Mid-flight differs from the settled end: the grid was still coasting.
        #expect(try Data(contentsOf: scratch.appendingPathComponent("mid-1.png"))
                != Data(contentsOf: scratch.appendingPathComponent("end-1.png")))
    }

    /// From the newest photos back towards the older ones: the grid pulled down.
    @Test func flickScrollsFartherThanASlowDragOfTheSameLength() throws {
        let slow = try write("slow.txt", "dump \(scratch.path)/start.json\ndown 200 150\nmove 200 350 1500\nup\nwait 2000\ndump \(scratch.path)/slow.json\n")
        let fast = try write("fast.txt", "down 200 150\nmove 200 350 80\nup\nwait 2000\ndump \(scratch.path)/fast.json\n")
        #expect(try run(slow).0 == 0)
        #expect(try run(fast).0 == 0)
        // The newest photo's cell (the last, cell.89) where the grid opens; then it is where the content moved it
        // (far from the view, the grid keeps no cell for it in the scene).
        let startTop = try top(of: "cell.89", in: "\(scratch.path)/start.json")
        #expect(startTop > 56 && startTop < 600 - 56, "the grid opens at its newest photo: \(startTop)")
        let start = try top(of: "grid.cells", in: "\(scratch.path)/start.json")
        let slowTop = try startTop + top(of: "grid.cells", in: "\(scratch.path)/slow.json") - start
        let fastTop = try startTop + top(of: "grid.cells", in: "\(scratch.path)/fast.json") - start
        #expect(slowTop > startTop + 200 - 1, "dragged 200 px: \(slowTop) from \(startTop)")
        #expect(fastTop > slowTop + 500, "fast \(fastTop), slow \(slowTop)")
    }

    @Test func traceHasALinePerFrameThatFollowsTheSeedsFormulas() throws {
        let script = try write("pull.txt", "tap 150 100\nwait 700\ndown 200 300\nmove 210 420 300\nup\nwait 400\n")
        let trace = scratch.appendingPathComponent("trace.jsonl").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "400x600", "--script", script, "--trace", trace])
        #expect(status == 0, "\(errors)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let records = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let times = records.map { $0["time"] as! Double }
        #expect(times.count > 60)
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - 1.0 / 60) < 1e-5) }
        let transitions = Set(records.map { $0["flight"] as! String })
        #expect(transitions == ["none", "zoomingIn", "held", "flyingHome"])
        for r in records where r["flight"] as? String == "held" {
            let dy = max((r["translation"] as! [Double])[1], 0)
            #expect(abs(r["backgroundAlpha"] as! Double - (1 - min(dy / 150, 1))) < 1e-4, "translations are traced to 0.001 px")
            #expect(abs(r["tabBarAlpha"] as! Double - min(dy / 150, 1)) < 1e-4)
        }
        #expect(records.last!["screen"] as? String == "grid")
    }

    /// `settle` waits until the zoom-in has landed and the photo is decoded, and the steps after it count from
    /// then: 100 ms after an Escape that follows it shows what 100 ms after an Escape given long after the zoom does.
    @Test func settleWaitsForRestAndTheStepsAfterItCountFromThen() throws {
        func shot(_ name: String, _ pause: String, escapeFor ms: Int = 100) throws -> PixelImage {
            let out = scratch.appendingPathComponent("\(name).png").path
            let script = try write("\(name).txt", "tap 150 100\n\(pause)\nkey Escape\nwait \(ms)\nscreenshot \(out)\n")
            let (status, errors) = try run(script)
            #expect(status == 0, "\(errors)")
            return try ImageDecoder.decode(path: out).image
        }
        let settled = try shot("settled", "settle"), waited = try shot("waited", "wait 3000")
        let atRest = try shot("at-rest", "wait 3000", escapeFor: 1500)
        #expect(PixelComparison(settled, waited, channelTolerance: 0).differing == 0, "100 ms into the flight home, both")
        #expect(PixelComparison(waited, atRest, channelTolerance: 1).differing > 0, "the flight home still under way")
    }

    @Test func malformedLineStopsBeforeAnythingHappens() throws {
        let out = scratch.appendingPathComponent("never.png").path
        let script = try write("bad.txt", "wait 100\nscreenshot \(out)\nmove 10 ten\n")
        let (status, errors) = try run(script, ["--screenshot", out])
        #expect(status != 0)
        #expect(errors.contains("script line 3"), "\(errors)")
        #expect(errors.contains("move 10 ten"), "\(errors)")
        #expect(errors.split(separator: "\n").count == 1, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
