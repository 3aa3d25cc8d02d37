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
    /// in the middle. Each frame goes up when its delays after the first are over (typically within a
    /// frame of 60 Hz), twelve in all; the frames drawn for it alone draw the photo's area only.
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
        // Each frame is due its delays after the first (the player keeps that schedule when a frame is a
        // little late). Typically it goes up within a frame of 60 Hz and the loop's wake-up; on a loaded
        // machine one can be a few frames late (CI's two busy cores: 24 ms once), but never the schedule.
        // Under ThreadSanitizer (`make sanitize-thread`), whose viewer decodes several times slower, a
        // frame is typically a few frames late, and under AddressSanitizer one.
        let delays = [100.0, 200, 50, 300, 100, 200, 50, 300, 100, 200, 50]
        let due = delays.indices.map { delays[...$0].reduce(0, +) }
        let lateness = zip(changes.dropFirst(), due).map { ($0.time - changes[0].time) * 1000 - $1 }
        let typical: Double = ["thread": 60, "address": 17 * 2 + 4][ProcessInfo.processInfo.environment["PHOTOZOOM_SANITIZER"] ?? ""] ?? 17 + 4
        let shown = "ms after due: \(lateness.map { Int($0.rounded()) })"
        #expect(lateness.allSatisfy { abs($0) <= typical + 3 * 17 }, "\(shown)")
        #expect(abs(lateness.sorted()[lateness.count / 2]) <= typical, "\(shown)")
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
        // Under AddressSanitizer (`make sanitize-address`) the freed frames wait in its quarantine (256 MiB
        // by default), which fills as the loops go round and read as growth: it is kept small here.
        let sanitized = ProcessInfo.processInfo.environment["PHOTOZOOM_SANITIZER"] == "address"
        let (viewer, _) = try session.launch(["--size", "960x540", "--no-thumbnail-cache", gif],
                                             environment: sanitized ? ["ASAN_OPTIONS": "quarantine_size_mb=16"] : [:])
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
        // Under AddressSanitizer its redzones and shadow memory are in the RSS too.
        let bound = sanitized ? 400.0 + 256 : 400
        #expect(late < bound, "a few frames at a time, not 120 decoded: \(late) MiB")
        #expect(viewer.process.isRunning)
    }

    /// The photo flying out of its cell plays: two screenshots taken during the zoom-in (headless, the
    /// same every run) show different frames where the animation moves (the green square of frame 2,
    /// cleared by frame 4), at the same place in the flying copy.
    @Test func twoMidFlightScreenshotsShowDifferentFrames() throws {
        let folder = try TemporaryFolder(), out = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "a-cat.png")
        try folder.copy(Self.fixtures + "/frames.gif", as: "b-frames.gif")
        // The second cell of a 400x300 grid (4 columns of 100 points, under a 56-point bar).
        let script = out.path + "/fly.txt", tracePath = out.path + "/trace.jsonl"
        try """
            tap 150 100
            wait 150
            screenshot \(out.path)/early.png
            wait 250
            screenshot \(out.path)/late.png
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "400x300", "--script", script,
                                                      "--trace", tracePath, folder.path])
        #expect(status == 0, "\(errors)")
        struct Line: Decodable { let time: Double; let flight: String; let photoFrame: [Double]? }
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let flying = lines.filter { $0.flight == "zoomingIn" }
        let start = try #require(flying.first).time
        // The copy's frame at each screenshot (the frames are 1/60 s apart; a step is taken on one).
        func copy(at t: Double) -> [Double]? { lines.last { $0.time <= start + t + 1e-6 }?.photoFrame }
        let early = try #require(copy(at: 0.15)), late = try #require(copy(at: 0.40))
        #expect(flying.last!.time > start + 0.4, "both screenshots in the flight")
        let shots = try ["early.png", "late.png"].map { try ImageDecoder.decode(path: out.path + "/" + $0).image }
        // Inside the green square of frame 2: a quarter across, a third down the picture.
        let (green, cleared) = (shots[0].pixel(x: Int(early[0] + early[2] * 0.25), y: Int(early[1] + early[3] * 0.33)) & 0xFF_FFFF,
                                shots[1].pixel(x: Int(late[0] + late[2] * 0.25), y: Int(late[1] + late[3] * 0.33)) & 0xFF_FFFF)
        #expect(green >> 8 & 0xFF > 200 && green >> 16 & 0xFF < 60, "frame 2's green square: \(String(green, radix: 16))")
        #expect(cleared >> 8 & 0xFF < 100, "frame 4 has no green there: \(String(cleared, radix: 16))")
    }

    private func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }
}
