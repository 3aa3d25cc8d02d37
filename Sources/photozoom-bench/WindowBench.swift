import Foundation
import Histogram
import TestSupport

/// What the user sees in a real window: the `photozoom` binary built beside this one plays a script
/// on the X display the bench runs under (`make bench`: Xvfb 1920x1080), on a folder of 12 MP
/// photos, with `--trace`; the figures come from the trace's frame times and the process's RSS.
struct WindowBench {
    let viewer: String
    let folder: String

    /// The `photozoom` binary built beside this one.
    static var viewerBesideThisBench: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photozoom").path
    }

    /// The issue's walk: open a photo (while thumbnails still load), pinch to 3x, `0`, pull it down
    /// into its cell, flick the grid.
    static let walk = """
        tap 437 180
        wait 900
        pinch 960 540 3 400
        wait 900
        key 0
        wait 700
        down 960 500
        move 960 560 50
        move 960 900 400
        up
        wait 900
        down 960 900
        move 960 300 120
        up
        wait 2500
        key q
        """

    /// The walk with `r` pressed before it and again before `q`: the window records it all.
    static let recordedWalk = "key r\n" + walk.replacingOccurrences(of: "key q", with: "key r\nwait 100\nkey q")

    /// Opens a photo, and turns pages with the keys: three forward, one back.
    static let pageTurns = "tap 437 180\nwait 900\n" + String(repeating: "key Right\nwait 800\n", count: 3)
        + "key Left\nwait 800\nkey q\n"

    /// Opens and closes the same photo `count` times, by turns with Escape and with a pull.
    static func openAndClose(_ count: Int) -> String {
        let escape = "tap 437 180\nwait 650\nkey Escape\nwait 400\n"
        let pull = "tap 437 180\nwait 650\ndown 960 500\nmove 960 900 250\nup\nwait 450\n"
        return String(repeating: escape + pull, count: count / 2) + "key q\n"
    }

    /// Waits for the first screen, and quits.
    static let launch = "wait 200\nkey q\n"

    /// Pressing Right through the folder in the viewer, then back to the grid.
    static func browse(_ count: Int) -> String {
        "tap 437 180\nwait 900\n" + String(repeating: "key Right\nwait 150\n", count: count) + "wait 1000\nkey q\n"
    }

    struct Run {
        let trace: [Frame]
        let peakRSSMiB: Double
        let finalRSSMiB: Double
        /// The window process's RSS, MiB, every 50 ms from launch.
        let rssSamples: [Double]
        /// The largest RSS any one of its decoder processes had, MiB.
        let decoderPeakRSSMiB: Double
        /// The most the viewer and its decoders held together, MiB: the sum of their proportional set sizes (the
        /// libraries they share counted once, as one process's RSS counts them).
        let togetherPeakPSSMiB: Double
        /// The CPU time it had used (s), every 50 ms from launch: (seconds since launch, CPU seconds).
        let cpuSamples: [(at: Double, cpu: Double)]
        /// What `--verbose` logged.
        let log: String
        /// The sizes of the recordings `r` made in the run's folder, bytes.
        let recordings: [Int]
        /// From launch to the process's end, s (a recording is written before it ends).
        let seconds: Double

        /// The time since launch that the log gives for `milestone` ("grid complete after 84 ms").
        /// The trace times at which an animated photo's frames went up.
        var animationFrameTimes: [Double] {
            var times: [Double] = [], last: Int?
            for frame in trace where frame.animationFrame != last {
                if frame.animationFrame != nil { times.append(frame.time) }
                last = frame.animationFrame
            }
            return times
        }

        /// The CPU it used between `start` and `end` s after launch, % of one core.
        func cpuPercent(from start: Double, to end: Double) -> Double {
            guard let a = cpuSamples.first(where: { $0.at >= start }), let b = cpuSamples.last(where: { $0.at <= end }), b.at > a.at else {
                return .nan
            }
            return (b.cpu - a.cpu) / (b.at - a.at) * 100
        }

        func milliseconds(_ milestone: String) -> Double {
            guard let line = log.split(separator: "\n").first(where: { $0.contains(milestone + " after ") }),
                  let ms = line.split(separator: " ").dropLast().last.flatMap({ Double($0) }) else { return .nan }
            return ms
        }
    }

    /// One `--trace` line, the fields the figures need.
    struct Frame: Decodable {
        let time: Double
        let screen: String
        let flight: String
        var animating: Bool
        let translation: [Double]?
        let imagePixels: [Int]?
        let page: Int?
        let drawMs: Double?
        let presentMs: Double?
        let animationFrame: Int?
        /// Where the display showed it (X Present): its refresh, when, and the refreshes it missed.
        let msc: UInt64?
        let presentedAt: Double?
        let missed: UInt64?
        /// The interaction's phase ("scrubbingDates" while the date scrubber is dragged).
        let phase: String?
        /// The newest input it is the first to show: its time on the server (monotonic s).
        let inputAt: Double?
        /// A clip with sound: its sound's lead over the picture this frame put up, ms (at `time`).
        let soundLeadMs: Double?

        /// The same frame counted as in motion (a drag the app does not animate: the date scrubber's).
        func moving() -> Frame {
            var frame = self
            frame.animating = true
            return frame
        }
    }

    /// Plays `script` on `target` (the folder by default) with a thumbnail cache in `cacheHome` (a
    /// fresh one by default), `scale` device pixels a point (2: the window is 3840x2160), on the window
    /// system `environment` (added to the bench's) and `backend` name.
    func play(_ script: String, target: String? = nil, cacheHome: String? = nil, scale: Int = 1,
              environment added: [String: String] = [:], backend: String = "auto") throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scriptPath = dir + "/walk.txt", tracePath = dir + "/trace.jsonl"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: viewer)
        process.arguments = ["--verbose", "--backend", backend, "--size", "1920x1080", "--scale", "\(scale)", "--script", scriptPath,
                             "--trace", tracePath, target ?? folder]
        var environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
        environment["XDG_CACHE_HOME"] = cacheHome ?? dir
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let errorPath = dir + "/stderr.txt"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorPath) ?? .nullDevice
        let started = Date()
        try process.run()
        var samples: [Double] = [], cpu: [(Double, Double)] = [], decoders = DecoderMemory()
        while process.isRunning {
            if let rss = Self.rssMiB(process.processIdentifier) { samples.append(rss) }
            decoders.sample(viewer: process.processIdentifier)
            if let used = Self.cpuSeconds(process.processIdentifier) { cpu.append((-started.timeIntervalSinceNow, used)) }
            usleep(50_000)
        }
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw BenchError("photozoom exited with \(process.terminationStatus): \(said.split(separator: "\n").suffix(3).joined(separator: " / "))")
        }
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        let frames = try lines.map { try JSONDecoder().decode(Frame.self, from: Data($0.utf8)) }
        let log = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let recordings = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".webp") }.map {
            (try FileManager.default.attributesOfItem(atPath: dir + "/" + $0)[.size] as? Int) ?? 0
        }
        return Run(trace: frames, peakRSSMiB: samples.max() ?? .nan, finalRSSMiB: samples.last ?? .nan, rssSamples: samples,
                   decoderPeakRSSMiB: decoders.largestRSS, togetherPeakPSSMiB: decoders.peakTogether,
                   cpuSamples: cpu.map { (at: $0.0, cpu: $0.1) }, log: log, recordings: recordings, seconds: -started.timeIntervalSinceNow)
    }

    /// Runs `executable` with `arguments` (and `XDG_CACHE_HOME` set to `cacheHome`) while a
    /// `ScreenWatcher` grabs the screen, until the screen has not changed for `quiet` seconds (or
    /// `limit` have passed), then ends it: what the screen did from its launch on.
    static func watchLaunch(_ executable: String, _ arguments: [String], cacheHome: String, quiet: Double = 1.5,
                            limit: Double = 120) throws -> [ScreenWatcher.Change] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheHome
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let started = Date()
        let watcher = ScreenWatcher(from: started)
        try process.run()
        // Quiet counts from the last change the watcher saw, which it reports only when stopped: the
        // process's CPU time standing still for `quiet` seconds is the cue to look.
        var lastCPU = -1.0, stillSince = Date()
        while process.isRunning, -started.timeIntervalSinceNow < limit {
            usleep(100_000)
            let cpu = cpuSeconds(process.processIdentifier) ?? 0
            if cpu != lastCPU { lastCPU = cpu; stillSince = Date() }
            if -stillSince.timeIntervalSinceNow >= quiet { break }
        }
        let changes = watcher.stop()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return changes
    }

    /// User and system CPU time used so far, s.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.range(of: ")") else { return nil }
        let fields = stat[end.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func rssMiB(_ pid: Int32) -> Double? { kibField("VmRSS:", in: "/proc/\(pid)/status").map { $0 / 1024 } }

    /// The proportional set size (shared pages divided among the processes that map them), MiB.
    static func pssMiB(_ pid: Int32) -> Double? { kibField("Pss:", in: "/proc/\(pid)/smaps_rollup").map { $0 / 1024 } }

    /// The value of a `/proc` file's line `name … kB`, KiB.
    private static func kibField(_ name: String, in file: String) -> Double? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return Double(line.split(separator: " ").dropFirst().first ?? "")
    }
}

/// The viewer's decoder processes (its children in their hidden mode), sampled with it.
struct DecoderMemory {
    private(set) var largestRSS = 0.0
    private(set) var peakTogether = 0.0

    mutating func sample(viewer: Int32) {
        let decoders = DecoderProcesses.of(viewer)
        for pid in decoders { largestRSS = max(largestRSS, WindowBench.rssMiB(pid) ?? 0) }
        guard let own = WindowBench.pssMiB(viewer) else { return }
        peakTogether = max(peakTogether, decoders.reduce(own) { $0 + (WindowBench.pssMiB($1) ?? 0) })
    }
}

/// Frame intervals, ms, of the frames that follow a frame in motion (an animation running, or a
/// finger dragging): the pauses of the script between moves are not frames the user waits for.
struct FramePacing {
    var transition = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    var grid = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    var viewer = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    var all = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    var draw = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    var present = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    /// From an input event on the server to the refresh that first showed it, µs.
    var inputToPhoton = Histogram<UInt64>(highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    /// Frames in motion, and the refreshes they missed (each frame: how many later than due it came).
    var framesInMotion = 0
    var missedRefreshes: UInt64 = 0
    var framesThatMissed = 0

    init(_ frames: [WindowBench.Frame]) {
        for frame in frames {
            if let input = frame.inputAt, let shown = frame.presentedAt { _ = inputToPhoton.record(UInt64(max(0, shown - input) * 1_000_000)) }
        }
        for (a, b) in zip(frames, frames.dropFirst()) {
            if let d = b.drawMs { _ = draw.record(UInt64(d * 1000)) }
            if let p = b.presentMs { _ = present.record(UInt64(p * 1000)) }
            guard a.animating || a.translation != nil else { continue }
            framesInMotion += 1
            if let missed = b.missed, missed > 0 {
                missedRefreshes += missed
                framesThatMissed += 1
            }
            // Between the refreshes the frames went up at, where the display paces them.
            let us = UInt64(max(0, ((b.presentedAt ?? b.time) - (a.presentedAt ?? a.time)) * 1_000_000))
            _ = all.record(us)
            if a.flight != "none" || b.flight != "none" {
                _ = transition.record(us)
            } else if a.screen == "grid" {
                _ = grid.record(us)
            } else {
                _ = viewer.record(us)
            }
        }
    }

    static func ms(_ h: Histogram<UInt64>, _ percentile: Double) -> Double {
        h.totalCount == 0 ? .nan : Double(h.valueAtPercentile(percentile)) / 1000
    }

    static func count(_ h: Histogram<UInt64>, over ms: Double) -> UInt64 {
        h.count(within: UInt64(ms * 1000) + 1...UInt64.max / 2)
    }
}
