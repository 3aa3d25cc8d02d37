import Animation
import Foundation
import Testing
import TestSupport

/// `--motion seeds` plays the seeds' release curves exactly: sampled from `--trace`, the photo's
/// frame follows their closed forms within a pixel (RMS).
@Suite struct SeedsMotionTests {
    /// Removed when the test is over.
    private let temporary: TemporaryFolder
    let scratch: URL

    init() throws {
        temporary = try TemporaryFolder()
        scratch = temporary.url
    }

    struct Frame {
        let time: Double
        let screen: String
        let flight: String
        /// x, y, width, height.
        let photo: [Double]?
        var center: [Double] { [photo![0] + photo![2] / 2, photo![1] + photo![3] / 2] }
    }

    /// Plays `script` headless at 400x600 on the bundled photos with `--motion seeds`, then dumps the
    /// scene; the trace's frames and the window frame of the cell under (150, 100).
    func play(_ script: String) throws -> (frames: [Frame], cell: [Double]) {
        let scriptFile = scratch.appendingPathComponent("script.txt"), traceFile = scratch.appendingPathComponent("trace.jsonl")
        let dump = scratch.appendingPathComponent("scene.json")
        try (script + "dump \(dump.path)\n").write(to: scriptFile, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "400x600", "--motion", "seeds", "--script", scriptFile.path,
                                                      "--trace", traceFile.path])
        #expect(status == 0, "\(errors)")
        var offset = 0.0
        let frames = try String(contentsOf: traceFile, encoding: .utf8).split(separator: "\n").map {
            let r = try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            offset = r["gridOffset"] as! Double
            return Frame(time: r["time"] as! Double, screen: r["screen"] as! String, flight: r["flight"] as! String,
                         photo: r["photoFrame"] as? [Double])
        }
        func cells(_ node: [String: Any]) -> [[Double]] {
            let own = (node["name"] as? String ?? "").hasPrefix("cell.") ? [node["frame"] as! [Double]] : []
            return own + (node["children"] as? [[String: Any]] ?? []).flatMap(cells)
        }
        let scene = try JSONSerialization.jsonObject(with: Data(contentsOf: dump)) as! [String: Any]
        let onScreen: [[Double]] = cells(scene).map { [$0[0], $0[1] - offset, $0[2], $0[3]] }
        let cell = try #require(onScreen.first { (c: [Double]) -> Bool in
            let x: Double = 150, y: Double = 100
            return c[0] <= x && x < c[0] + c[2] && c[1] <= y && y < c[1] + c[3]
        })
        return (frames, cell)
    }

    /// The root mean square of the differences, over every number.
    func rms(_ pairs: [([Double], [Double])]) -> Double {
        let squares = pairs.flatMap { zip($0.0, $0.1).map { ($0 - $1) * ($0 - $1) } }
        return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
    }

    /// UIKit's ease-in-out, the cubic Bézier (0.42, 0, 0.58, 1), at time fraction `x`.
    func easeInOut(_ x: Double) -> Double {
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 { let mid = (lo + hi) / 2; if bezier(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid } }
        return bezier((lo + hi) / 2, 0, 1)
    }

    /// The pull: the fit frame before it, and the frame and time at release.
    func pull(in frames: [Frame]) throws -> (fit: [Double], start: Frame, after: ArraySlice<Frame>) {
        let first = try #require(frames.firstIndex { $0.flight == "held" })
        let fit = try #require(frames[first - 1].photo)
        let released = try #require(frames.lastIndex { $0.flight == "held" })
        return (fit, frames[released], frames[(released + 1)...].prefix { $0.flight == "flyingHome" || $0.flight == "springingBack" })
    }

    /// A slow pull let go below the anchor: 0.25 s of ease-in-out from rest into the cell, the
    /// centre, the size and the scale all on the one curve.
    @Test func theFinishIsAQuarterSecondOfEaseInOutFromRest() throws {
        // A frame's trace line is written before that moment's input: the wait puts the last move on a line.
        let (frames, cell) = try play("tap 150 100\nwait 700\ndown 200 300\nmove 210 420 300\nwait 50\nup\nwait 400\n")
        let (fit, start, flight) = try pull(in: frames)
        #expect(flight.count == 14, "15 frames in 0.25 s; on the last it has landed")
        let s0 = start.photo![2] / fit[2]
        let pairs = flight.map { f -> ([Double], [Double]) in
            let p = easeInOut((f.time - start.time) / 0.25)
            func along(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
            let scale = along(s0, 1)
            return ([f.center[0], f.center[1], f.photo![2], f.photo![3]],
                    [along(start.center[0], cell[0] + cell[2] / 2), along(start.center[1], cell[1] + cell[3] / 2),
                     along(fit[2], cell[2]) * scale, along(fit[3], cell[3]) * scale])
        }
        #expect(rms(pairs) < 1, "RMS \(rms(pairs)) px")
        #expect(frames.last?.screen == "grid")
    }

    /// A pull let go moving up: the seeds' spring (0.5 s, damping ratio 0.9) from rest back to the fit frame.
    @Test func theCancelIsTheSeedsSpringFromRest() throws {
        let (frames, _) = try play("tap 150 100\nwait 700\ndown 200 300\nmove 200 400 300\nmove 200 380 100\nup\nwait 700\n")
        let (fit, start, flight) = try pull(in: frames)
        #expect(flight.count >= 25 && flight.count <= 30, "about 0.5 s")
        let spring = Spring(duration: 0.5, dampingRatio: 0.9)
        let w = spring.angularFrequency, z = spring.dampingRatio, wd = w * (1 - z * z).squareRoot()
        let s0 = start.photo![2] / fit[2]
        let pairs = flight.dropLast().map { f -> ([Double], [Double]) in
            // Released from rest, the displacement is x₀·e^(−ζωt)·(cos ω_d t + ζω/ω_d·sin ω_d t).
            let t = f.time - start.time
            let left = exp(-z * w * t) * (cos(wd * t) + z * w / wd * sin(wd * t))
            func back(_ from: Double, _ to: Double) -> Double { to + (from - to) * left }
            let scale = back(s0, 1)
            return ([f.center[0], f.center[1], f.photo![2], f.photo![3]],
                    [back(start.center[0], fit[0] + fit[2] / 2), back(start.center[1], fit[1] + fit[3] / 2), fit[2] * scale, fit[3] * scale])
        }
        #expect(rms(pairs) < 1, "RMS \(rms(pairs)) px")
        #expect(frames.last?.screen == "viewer")
    }
}
