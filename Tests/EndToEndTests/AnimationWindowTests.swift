import Foundation
import Imaging
import Testing
import TestSupport

/// Animated photos in a real window: each frame on screen for its own time (from `--trace`, within a
/// frame), only the photo drawn while nothing else moves, nothing at all while paused, and memory
/// flat however long a large GIF plays.
@Suite(.serialized) struct AnimationWindowTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    struct TraceLine: Decodable {
        let time: Double
        let animationFrame: Int?
        let damage: [Double]?
    }

    func trace(_ path: String) throws -> [TraceLine] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(TraceLine.self, from: Data($0.utf8)) }
    }

    /// frames.gif (100, 200, 50 and 300 ms, three plays) at fit in a 600x300 window: 400x300 points
    /// in the middle. Each frame goes up its delay after the one before (±1 frame of 60 Hz, and the
    /// loop's wake-up), twelve in all; the frames drawn for it alone draw the photo's area only.
    @Test func aGIFPlaysAtItsOwnDelaysDrawingOnlyItself() throws {
        let session = try WindowSession()
        let script = session.scratch.appendingPathComponent("wait.txt").path
        try "wait 2600\n".write(toFile: script, atomically: true, encoding: .utf8)
        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        // The screenshot ends the run once the script is over and the screen at rest.
        let shot = session.scratch.appendingPathComponent("end.png").path
        let (viewer, _) = try session.launch(["--size", "600x300", "--no-thumbnail-cache", "--script", script, "--trace", tracePath,
                                              "--screenshot", shot, Self.fixtures + "/frames.gif"])
        #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)")
        let lines = try trace(tracePath)
        var changes: [TraceLine] = []
        for line in lines where line.animationFrame != changes.last?.animationFrame { changes.append(line) }
        changes = changes.filter { ($0.animationFrame ?? 0) > 0 }
        #expect(changes.map(\.animationFrame) == Array(1...12).map { Optional($0) }, "\(changes.map(\.animationFrame))")
        let delays = [100.0, 200, 50, 300, 100, 200, 50, 300, 100, 200, 50]
        let intervals = zip(changes.dropFirst(), changes).map { ($0.time - $1.time) * 1000 }
        for (interval, delay) in zip(intervals, delays) {
            #expect(abs(interval - delay) <= 17 + 4, "intervals \(intervals.map { Int($0.rounded()) }) ms")
        }
        let partial = lines.compactMap(\.damage)
        #expect(partial.count >= 10, "the frames after the first are drawn alone: \(partial.count)")
        #expect(partial.allSatisfy { $0 == [100, 0, 400, 300] }, "only the photo's area: \(Set(partial.map { "\($0)" }))")
    }

    /// Paused (Space), nothing is drawn and no CPU is spent; Space again plays on.
    @Test func pausedItCostsNothing() throws {
        let session = try WindowSession()
        let folder = try TemporaryFolder()
        let gif = folder.path + "/loop.gif"
        try TestGIF.write(to: gif, width: 400, height: 300, frames: 20, delay: 4)
        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        let (viewer, window) = try session.launch(["--size", "400x300", "--no-thumbnail-cache", "--trace", tracePath, gif])
        #expect(session.wait { (try? trace(tracePath).compactMap(\.animationFrame).max() ?? 0) ?? 0 >= 5 }, "it plays")
        session.client.movePointer(to: 200, 150)
        session.client.press(key: "space")
        usleep(300_000)
        let before = try cpuTicks(viewer.pid), frames = try trace(tracePath).count
        sleep(2)
        #expect(try cpuTicks(viewer.pid) - before <= 2, "CPU while paused")
        #expect(try trace(tracePath).count == frames, "no frame drawn while paused")
        session.client.press(key: "space")
        #expect(session.wait { (try? trace(tracePath).count) ?? 0 > frames + 5 }, "plays on")
        _ = window
    }

    /// A 1920x1080 GIF of 120 frames (20 ms each, looping) plays for a while: the viewer holds a few
    /// frames ahead, never the 120 (about 1 GB), and its memory does not grow as the loops go round.
    /// `PHOTOZOOM_ANIMATION_SECONDS` lengthens it (`make soak` plays 5 minutes).
    @Test(.timeLimit(.minutes(10)))
    func aLargeGIFPlaysWithFlatMemory() throws {
        let seconds = ProcessInfo.processInfo.environment["PHOTOZOOM_ANIMATION_SECONDS"].flatMap(Double.init) ?? 16
        let session = try WindowSession()
        let folder = try TemporaryFolder()
        let gif = folder.path + "/large.gif"
        try TestGIF.write(to: gif, width: 1920, height: 1080, frames: 120, delay: 2)
        let (viewer, _) = try session.launch(["--size", "960x540", "--no-thumbnail-cache", gif])
        func rss() throws -> Double {
            let status = try String(contentsOfFile: "/proc/\(viewer.pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Double(line.split(separator: " ", omittingEmptySubsequences: true)[1])) / 1024
        }
        usleep(UInt32(seconds / 4 * 1_000_000))
        let early = try rss()
        usleep(UInt32(seconds * 3 / 4 * 1_000_000))
        let late = try rss()
        #expect(late < early * 1.1 + 4, "RSS \(early) MiB, then \(late) MiB")
        #expect(late < 400, "a few frames at a time, not 120 decoded: \(late) MiB")
        #expect(viewer.process.isRunning)
    }

    private func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }
}
