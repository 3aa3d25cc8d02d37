import Foundation
import Testing
import TestSupport

/// Frames on the display's clock, in a real window on Xvfb (whose X Present runs a fake 60 Hz
/// refresh): each frame in motion reports the refresh it went up at, the refreshes follow one another,
/// and the motion drawn on each is where the curve is at the moment it is seen.
///
/// `make test` runs this suite alone, after the others: beside a dozen other viewers on two cores, which
/// refresh a frame makes is the machine's load (a third of them missed), not the viewer's pacing.
@Suite(.serialized) struct PresentPacingTests {
    /// Under a sanitizer (`make sanitize`) the viewer draws several times slower: only the order of the
    /// refreshes and the sampling are checked there, not how many were missed.
    static let sanitized = ProcessInfo.processInfo.environment["PHOTOZOOM_SANITIZER"] != nil

    struct Line: Decodable {
        let time: Double
        let flight: String
        let animating: Bool
        let photoFrame: [Double]?
        let msc: UInt64?
        let presentedAt: Double?
        let missed: UInt64?
        var center: [Double] { [photoFrame![0] + photoFrame![2] / 2, photoFrame![1] + photoFrame![3] / 2] }
    }

    /// Opens a photo, pulls it down slowly and lets go (`--motion seeds`: 0.25 s of ease-in-out from
    /// rest into its cell), in a 400x600 window.
    @Test func everyFrameInMotionGoesUpAtTheRefreshItWasDrawnFor() throws {
        let session = try WindowSession()
        let script = session.scratch.appendingPathComponent("pull.txt").path
        try "tap 150 100\nwait 700\ndown 200 300\nmove 210 420 300\nwait 50\nup\nwait 500\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        let shot = session.scratch.appendingPathComponent("end.png").path
        let (viewer, _) = try session.launch(["--size", "400x600", "--no-thumbnail-cache", "--motion", "seeds", "--verbose",
                                              "--script", script, "--trace", tracePath, "--screenshot", shot])
        #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)")
        #expect(viewer.standardError.contains("presenting through X Present"), "\(viewer.standardError)")
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let moving = zip(lines, lines.dropFirst()).filter { $0.0.animating }.map(\.1)
        #expect(moving.count > 40, "the zoom, the pull and the flight home: \(moving.count) frames")
        #expect(moving.allSatisfy { $0.msc != nil && $0.presentedAt != nil && $0.missed != nil }, "each says where it went")
        let refreshes = moving.compactMap(\.msc)
        #expect(zip(refreshes, refreshes.dropFirst()).allSatisfy { $1 >= $0 }, "in order")
        // How many refreshes are missed is the machine's load as much as the viewer's: alone on this
        // machine a debug build missed 0 to 2 of 63 (a motion's first frame aimed by its slowest recent
        // draw, a wake-up of the loop or of Xvfb's timer a few ms late), with both cores busy 3, and CI's
        // machine once 4. The bench counts them (`missed_refreshes_walk`, a release build), and
        // PresentationClockTests hold the pacing's rules on a manual clock (one slow draw misses one
        // refresh, and the frames after it are on time). What this window can tell apart from load is a
        // loop that re-aims late frames: it loses several refreshes a frame, not one frame in eight.
        let missed = moving.compactMap(\.missed).reduce(0, +)
        let allowed = Self.sanitized ? moving.count / 2 : moving.count / 8
        #expect(Int(missed) <= allowed, "missed refreshes: \(moving.map { $0.missed ?? 99 })")
        // A frame after a missed one can skip no refresh and still show a refresh after the one it was
        // drawn for: counted with the missed ones.
        let behind = moving.filter { $0.missed == 0 && $0.presentedAt! - $0.time > 0.5 / 60 }.count
        #expect(Int(missed) + behind <= allowed, "\(missed) missed, \(behind) a refresh behind, of \(moving.count)")
        // Sampled at the time it is seen: the time each frame was drawn for is its refresh's, within
        // Xvfb's millisecond timer (a frame after a lost one can be a refresh off). The median: Xvfb's
        // timer fires late now and then (a loop sampling at the time it draws would be the server's lead,
        // 8 ms, off on every frame). Alone: 0.3 to 0.7 ms in 8 runs.
        let onTime = moving.filter { $0.missed == 0 }
        let offsets = onTime.map { abs($0.presentedAt! - $0.time) * 1000 }
        #expect(offsets.sorted()[offsets.count / 2] < (Self.sanitized ? 1.5 : 1), "drawn for vs shown at, 0.1 ms: \(offsets.map { Int(($0 * 10).rounded()) })")

        // The flight home against its closed form at the moment each frame was seen, from where the
        // finger left the photo.
        let first = try #require(lines.firstIndex { $0.flight == "held" })
        let fit = try #require(lines[first - 1].photoFrame)
        let released = try #require(lines.lastIndex { $0.flight == "held" })
        let start = lines[released]
        let flight = Array(lines[(released + 1)...].prefix { $0.flight == "flyingHome" })
        // 0.25 s at 60 Hz: each refresh of the flight has its frame, or is counted missed by the next one.
        let flightMissed = flight.compactMap(\.missed).reduce(0, +)
        #expect(flight.count + Int(flightMissed) >= 12, "0.25 s at 60 Hz: \(flight.count) frames, \(flightMissed) missed")
        // It starts at a refresh: the one its first frame was due for, when the release was handled while that
        // refresh could still be made; a release handled late (the machine busy with the other tests) starts
        // the curves at a refresh before the first frame that shows them. Which refresh the release caught is
        // not what is checked here, only that every frame is sampled where it is seen: the curve is compared
        // from each of those starts, and the best one holds.
        let firstFrame = try #require(flight.first)
        let s0 = start.photoFrame![2] / fit[2]
        let rms = try (0...(firstFrame.missed! + 1)).map { k in
            try flightRMS(flight, start: start, fit: fit, s0: s0, t0: firstFrame.time - Double(k) / 60)
        }.min()!
        // Xvfb reports each refresh on a millisecond timer, up to a millisecond or so off, and the photo
        // flies at up to 1500 points a second; sampled when drawn rather than when seen, frames are up to
        // a refresh off (over 10 px RMS). Alone, sampled where each is seen: 0.16 to 0.55 px in 8 runs.
        #expect(rms < (Self.sanitized ? 2 : 1), "RMS \(rms) px from the curve at the times the frames were seen")
    }

    /// How far (RMS, px) the flight's frames are from its closed form sampled when each was seen, the curve
    /// started at `t0`, from where the finger left the photo (`start`) at scale `s0` of `fit`.
    func flightRMS(_ flight: [Line], start: Line, fit: [Double], s0: Double, t0: Double) throws -> Double {
        func seen(_ f: Line) -> [Double] { [f.center[0], f.center[1], f.photoFrame![2], f.photoFrame![3]] }
        func progress(_ f: Line) -> Double { easeInOut(min(1, (f.presentedAt! - t0) / 0.25)) }
        // Where it lands (its cell, with the scale back at 1), from the last frame on time and its progress.
        // Shown at the refresh it was drawn for: neither missed (after the frame before it) nor, after a
        // missed one, a refresh behind its own time (two late in a row: the second skips no refresh after
        // the first, yet shows what was meant for the refresh before; Xvfb's timer under load does that).
        func shownWhenDrawnFor(_ f: Line) -> Bool { f.missed == 0 && abs(f.presentedAt! - f.time) < 0.5 / 60 }
        let last = try #require(flight.last(where: shownWhenDrawnFor))
        let from = [start.center[0], start.center[1], fit[2], fit[3]]
        let lastScale = s0 + (1 - s0) * progress(last)
        let lastSeen = seen(last), lastUnscaled = [lastSeen[0], lastSeen[1], lastSeen[2] / lastScale, lastSeen[3] / lastScale]
        let to = zip(from, lastUnscaled).map { a, b in a + (b - a) / progress(last) }
        var squares: [Double] = []
        // The frames that went up when due (the late ones are counted above, and show a refresh behind).
        for f in flight where shownWhenDrawnFor(f) && f.presentedAt! < last.presentedAt! {
            let p = progress(f), scale = s0 + (1 - s0) * p
            let along = zip(from, to).map { a, b in a + (b - a) * p }
            let expected = [along[0], along[1], along[2] * scale, along[3] * scale]
            squares += zip(seen(f), expected).map { ($0 - $1) * ($0 - $1) }
        }
        return (squares.reduce(0, +) / Double(max(1, squares.count))).squareRoot()
    }

    /// UIKit's ease-in-out, the cubic Bézier (0.42, 0, 0.58, 1), at time fraction `x`.
    func easeInOut(_ x: Double) -> Double {
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 { let mid = (lo + hi) / 2; if bezier(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid } }
        return bezier((lo + hi) / 2, 0, 1)
    }
}
