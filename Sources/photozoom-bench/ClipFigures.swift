import Foundation
import TestSupport

/// Clips played in a real window (issue 41's measures): 60 s of 1080p30 H.264 with a tone and of 4K30 HEVC, and 20 s of
/// 1080p30 HEVC in HLG (10-bit BT.2020, as an iPhone films HDR by default: each picture tone-mapped), each opened on
/// its own in a 1920x1080 window; its sound to a PulseAudio null sink of the bench's own. Refreshes missed are those
/// between pictures past the clip's own two (a 30 fps clip at 60 Hz), after the first picture; the sound's lead is
/// measured where the display showed each picture (the trace's `soundLeadMs` plus how late the frame went up).
/// The clips are made once with ffmpeg (`PHOTOZOOM_BENCH_CLIPS` keeps them: the 4K one takes minutes to encode).
enum ClipFigures {
    static func measure(sources: [String]) throws -> [(String, Double)] {
        guard DesktopTools.has("ffmpeg") else {
            print("(ffmpeg is not installed: the clip figures are not measured)")
            return []
        }
        let kept = ProcessInfo.processInfo.environment["PHOTOZOOM_BENCH_CLIPS"]
        let folder = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-clips-\(getpid())").path
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: folder) } }
        try FileManager.default.createDirectory(atPath: folder + "/one", withIntermediateDirectories: true)
        let hd = folder + "/one/clip1080.mp4", uhd = folder + "/clip4k.mov"
        try make(hd, ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                      "-t", "60", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        try make(uhd, ["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30", "-t", "60", "-c:v", "libx265", "-preset", "ultrafast",
                       "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=none"])
        let hlg = folder + "/clip1080-hlg.mov"
        try make(hlg, ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "20",
                       "-vf", "zscale=t=arib-std-b67:p=bt2020:m=bt2020nc:tin=bt709:pin=bt709:min=bt709,format=yuv420p10le",
                       "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=none",
                       "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"])
        let pulse = PulseServer.isInstalled ? try PulseServer() : nil
        if pulse == nil { print("(PulseAudio is not installed: the clip plays silent, and av_sync_p99_ms is not measured)") }
        let bench = WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: folder + "/one")
        let played = try playAlone(hd, seconds: 61, environment: pulse?.environment ?? [:])
        let huge = try playAlone(uhd, seconds: 61)
        let hdr = try playAlone(hlg, seconds: 21)
        // A tap on the clip's cell, alone in its folder: its poster zooms in, and it plays from the landing.
        let tapped = try bench.play("tap 86 180\nwait 2000\nkey q\n", environment: pulse?.environment ?? [:])
        let (hdMissed, uhdMissed, hdrMissed) = (missed(played), missed(huge), missed(hdr))
        let amongPhotos = try WindowFigures.withPhotoFolder(sources: sources) { photos in
            try ClipGridFigures.measure(photoFolder: photos, clipsFolder: folder, environment: pulse?.environment ?? [:])
        }
        return amongPhotos + [("video_1080p30_missed", hdMissed.count), ("video_1080p30_missed_percent", hdMissed.percent),
                ("video_4k30_hevc_missed", uhdMissed.count), ("video_4k30_hevc_missed_percent", uhdMissed.percent),
                ("video_1080p30_hlg_missed", hdrMissed.count), ("video_1080p30_hlg_missed_percent", hdrMissed.percent),
                ("video_tap_to_first_frame_ms", firstMovingPicture(tapped.trace, from: .tap)),
                ("video_landing_to_first_frame_ms", firstMovingPicture(tapped.trace, from: .landing)),
                ("av_sync_p99_ms", soundLead(played).p99), ("av_sync_min_ms", soundLead(played).min),
                ("av_sync_max_ms", soundLead(played).max)]
    }

    /// The clip opened on its own in a 1920x1080 window, played for `seconds` with no script (a script's player ticks
    /// the whole window every refresh, where a clip alone draws only its picture), then ended: its trace.
    private static func playAlone(_ clip: String, seconds: Double, environment added: [String: String] = [:]) throws -> [WindowBench.Frame] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-clip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WindowBench.viewerBesideThisBench)
        process.arguments = ["--size", "1920x1080", "--trace", dir + "/trace.jsonl", clip]
        process.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }.merging(["XDG_CACHE_HOME": dir]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(seconds * 1_000_000))
        process.terminate()   // the viewer unblocks SIGTERM, and writes the trace's last line as it closes
        process.waitUntilExit()
        return try String(contentsOfFile: dir + "/trace.jsonl", encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(WindowBench.Frame.self, from: Data($0.utf8)) }
    }

    static func make(_ path: String, _ arguments: [String]) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let made = Date()
        let run = try DesktopTools.run("ffmpeg", ["-loglevel", "error", "-y"] + arguments + [path + ".part.mp4"], seconds: 1800)
        guard run.status == 0 else { throw BenchError("ffmpeg could not make \(path)") }
        try FileManager.default.moveItem(atPath: path + ".part.mp4", toPath: path)
        print("(made \((path as NSString).lastPathComponent) in \(String(format: "%.0f", -made.timeIntervalSinceNow)) s)")
    }

    /// The frames that put a new picture up, as the display showed them.
    private static func pictures(_ trace: [WindowBench.Frame]) -> [WindowBench.Frame] {
        var last: Int?
        return trace.filter { frame in
            defer { last = frame.animationFrame ?? last }
            return frame.animationFrame != nil && frame.animationFrame != last && frame.msc != nil
        }
    }

    /// Refreshes missed in steady playback: past two a picture (after the first, which waits for its decoder), and
    /// what share of the refreshes played that is, %.
    static func missed(_ trace: [WindowBench.Frame]) -> (count: Double, percent: Double) {
        let shown = pictures(trace).compactMap(\.msc)
        let steps = zip(shown, shown.dropFirst()).map { Int($1) - Int($0) }.dropFirst()
        let missed = steps.reduce(0) { $0 + max(0, $1 - 2) }
        let refreshes = steps.reduce(0, +)
        let counts = Dictionary(steps.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
        let late = zip(steps.indices, steps).filter { $0.1 > 3 }.prefix(5).map { "picture \($0.0): \($0.1)" }
        print("(\(shown.count) pictures; refreshes between them: \(counts.map { "\($0.key): \($0.value)" }.joined(separator: ", "))"
              + (late.isEmpty ? ")" : "; longest: \(late.joined(separator: ", ")))"))
        return (Double(missed), refreshes > 0 ? 100 * Double(missed) / Double(refreshes) : .nan)
    }

    enum Start { case tap, landing }

    /// From the tap (its frame) or the landing (the first frame with no flight) to the clip's second picture on screen, ms.
    static func firstMovingPicture(_ trace: [WindowBench.Frame], from start: Start) -> Double {
        let began: Double?
        switch start {
        case .tap: began = trace.first { $0.screen == "viewer" }?.time
        case .landing: began = trace.first { $0.screen == "viewer" && $0.flight == "none" }?.time
        }
        guard let began, let second = trace.first(where: { ($0.animationFrame ?? 0) >= 2 }) else { return .nan }
        return ((second.presentedAt ?? second.time) - began) * 1000
    }

    /// The sound's lead over each picture where the display showed it, ms: the 99th percentile of its size, and its
    /// least and most (ITU-R BT.1359: noticeable past +45 ms, sound early, or -125 ms, sound late).
    static func soundLead(_ trace: [WindowBench.Frame]) -> (p99: Double, min: Double, max: Double) {
        let leads = trace.compactMap { frame in frame.soundLeadMs.map { $0 + ((frame.presentedAt ?? frame.time) - frame.time) * 1000 } }
        guard !leads.isEmpty else { return (.nan, .nan, .nan) }
        let sizes = leads.map(abs).sorted()
        return (sizes[min(sizes.count - 1, Int(Double(sizes.count) * 0.99))], leads.min()!, leads.max()!)
    }
}
