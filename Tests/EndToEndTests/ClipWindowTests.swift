import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// A clip in a real window under Xvfb: opened on its own, it plays once on the display's clock, each picture in
/// turn at its 30 a second, and stops on its last; the trace shows the pictures going up every other refresh.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipWindowTests {
    struct Line: Decodable {
        let msc: UInt64?
        let animationFrame: Int?
    }

    @Test func aClipPlaysItsPicturesInTurnAtItsRateAndStopsOnItsLast() throws {
        let session = try WindowSession()
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.numbered], in: folder)[.numbered])
        let trace = session.scratch.appendingPathComponent("trace.jsonl").path
        let (viewer, window) = try session.launch(["--size", "320x300", "--trace", trace, clip])
        var seen: [(time: Double, frame: Int)] = []
        let start = Date()
        while Date().timeIntervalSince(start) < 4 {
            if let shown = session.client.capture(window), shown.width == 320 {
                let frame = TestClips.frameNumber(shownAs: shown.pixel(x: 160, y: 150))
                if seen.last?.frame != frame { seen.append((Date().timeIntervalSince(start), frame)) }
            }
            usleep(30_000)
        }
        let frames = seen.map(\.frame)
        #expect(frames == frames.sorted(), "in turn: \(frames)")
        #expect(frames.last == 59, "it stops on its last picture: \(frames)")
        #expect(Set(frames).count >= 20, "seen playing: \(frames)")
        // Its rate as the window shows it: from the first picture seen past 5 to the last one's arrival.
        if let from = seen.first(where: { $0.frame > 5 }), let to = seen.first(where: { $0.frame == 59 }), to.time > from.time {
            let rate = Double(to.frame - from.frame) / (to.time - from.time)
            #expect(rate > 24 && rate < 36, "\(rate) pictures a second: \(seen)")
        }
        viewer.process.terminate()
        _ = viewer.waitForExit(seconds: 10)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }.filter { $0.animationFrame != nil && $0.msc != nil }
        // Each picture's first frame (a frame may go up again for something else, the bars fading).
        let pictures = zip([nil] + lines.map(\.animationFrame), lines).filter { $0 != $1.animationFrame }.map(\.1)
        let steps = zip(pictures, pictures.dropFirst()).map { Int($1.msc! - $0.msc!) }
        // Steady playback, after the first picture (which waits for the decoder to start): every other refresh. A
        // picture judged due by a jitter of the clock once went up a refresh late and the next one early: 3, 1, 3.
        // Alone (`make test` runs this suite after the others), every step after the first is 2 in every run here;
        // beside the other suites a frame now and then went up a refresh late (24 of 59 in one run). It allows one in
        // eight, as the pacing test does (the cadence is the bench's to count: `video_1080p30_missed`); a clock that
        // followed each jitter went 3, 1, 3 throughout.
        let uneven = steps.dropFirst().filter { $0 != 2 }.count
        print("clip in a 60 Hz window: \(steps.count) steps between pictures, \(uneven) after the first not of two refreshes: \(steps)")
        #expect(steps.count >= 55 && uneven <= steps.count / 8, "a picture every other refresh, on the whole: \(steps)")
        #expect(steps.dropFirst().reduce(0, +) <= 2 * (steps.count - 1) + 4, "no refresh lost over the play: \(steps)")
    }
}

/// The same clip in a Wayland window on a headless sway: its pictures go up in turn, read back with grim, and it
/// stops on its last.
@Suite(.serialized, .enabled(if: TestClips.isInstalled && SwayServer.isInstalled && DesktopTools.has("grim"),
                             "ffmpeg, exiftool, sway or grim is not installed (apt-get install ffmpeg libimage-exiftool-perl sway grim)"))
struct WaylandClipWindowTests {
    @Test func aClipPlaysInAWaylandWindow() throws {
        let sway = try SwayServer()
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.numbered], in: folder)[.numbered])
        let viewer = try ViewerProcess(["--backend", "wayland", "--size", "320x300", clip], environment: sway.waylandEnvironment)
        var frames: [Int] = []
        let start = Date()
        while Date().timeIntervalSince(start) < 5 {
            if let window = sway.rect(ofAppID: "photozoom"), window.width == 320,
               let png = sway.grab((window.x + 160, window.y + 150, 1, 1)), let shown = try? ImageDecoder.decode(data: [UInt8](png)).image {
                let frame = TestClips.frameNumber(shownAs: shown.pixel(x: 0, y: 0))
                if frames.last != frame { frames.append(frame) }
                if frame == 59 { break }
            }
            usleep(20_000)
        }
        #expect(frames == frames.sorted() && frames.last == 59, "in turn, to its last: \(frames); \(viewer.standardError)")
        #expect(Set(frames).count >= 10, "seen playing: \(frames)")
    }
}
