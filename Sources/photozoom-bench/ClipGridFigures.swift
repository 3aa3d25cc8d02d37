import Foundation
import TestSupport

/// Clips among photos, and many clips in turn (issue 41's last measures), in a real 1920x1080 window: the grid of the
/// window figures' 200 photos with 50 phone clips among them (5 s of 1080p30 H.264 with sound, each dated between two
/// photos) against the same 200 with 50 more photos in the clips' places, cold (the grid complete, no thumbnails
/// cached) and warm (the screen's last change at launch); then the 50 clips alone, each played 1.5 s and paged on,
/// with the window process's RSS as it went.
enum ClipGridFigures {
    static let clipCount = 50

    /// `photozoom-bench clip-grid`: these figures alone, the clips kept in `PHOTOZOOM_BENCH_CLIPS` when it is set.
    static func measureAlone(sources: [String]) throws -> [(String, Double)] {
        let kept = ProcessInfo.processInfo.environment["PHOTOZOOM_BENCH_CLIPS"]
        let clips = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-clip-grid-\(getpid())").path
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: clips) } }
        let pulse = PulseServer.isInstalled ? try PulseServer() : nil
        return try WindowFigures.withPhotoFolder(sources: sources) {
            try measure(photoFolder: $0, clipsFolder: clips, environment: pulse?.environment ?? [:])
        }
    }

    static func measure(photoFolder: String, clipsFolder: String, environment: [String: String]) throws -> [(String, Double)] {
        let clip = clipsFolder + "/phone1080.mp4"
        try ClipFigures.make(clip, ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                    "-t", "5", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let (mixed, photos, clips) = (clipsFolder + "/mixed", clipsFolder + "/photos250", clipsFolder + "/fifty")
        try makeFolders(photoFolder: photoFolder, clip: clip, mixed: mixed, photos: photos, clips: clips)

        print("\nThe grid of 200 photos with 50 clips among them, against 250 photos:\n")
        print("| folder | grid complete, cold | the screen's last change, warm |")
        print("|---|---:|---:|")
        var figures: [(String, Double)] = []
        for (name, key, folder) in [("250 photos", "250_photos", photos), ("200 photos, 50 clips", "200_photos_50_clips", mixed)] {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-clipgrid-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: cache) }
            let cold = try WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: folder).play(WindowBench.launch, cacheHome: cache)
            let warm = try WindowBench.watchLaunch(WindowBench.viewerBesideThisBench, ["--size", "1920x1080", folder], cacheHome: cache)
            let (coldMs, warmMs) = (cold.milliseconds("grid complete"), (warm.last?.at ?? .nan) * 1000)
            print(String(format: "| %@ | %.0f ms | %.0f ms |", name, coldMs, warmMs))
            print("  (warm, the screen's changes from launch: " + warm.map { String(format: "%.0f ms, %.2f %%", $0.at * 1000, $0.rmsePercent) }
                .joined(separator: "; ") + ")")
            figures += [("grid_cold_\(key)_ms", coldMs), ("grid_warm_last_change_\(key)_ms", warmMs)]
        }
        return figures + (try playInTurn(clips, environment: environment))
    }

    /// The 50 clips opened from the first, each played 1.5 s, then the next (→): the viewer's RSS after the 10th
    /// and after the 50th, and the pages it showed.
    private static func playInTurn(_ folder: String, environment: [String: String]) throws -> [(String, Double)] {
        let each = 1.5
        let script = "tap 86 180\nwait \(Int(each * 1000))\n" + String(repeating: "key Right\nwait \(Int(each * 1000))\n", count: clipCount - 1) + "key q\n"
        let run = try WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: folder).play(script, environment: environment)
        let pages = Set(run.trace.compactMap(\.page)).count
        // RSS every 50 ms from launch: the median over the last second of the 10th clip and of the 50th.
        func rss(afterClip n: Int) -> Double {
            let end = Int((0.9 + each * Double(n)) / 0.05), samples = run.rssSamples
            let window = samples[max(0, min(end, samples.count) - 20)..<min(end, samples.count)].sorted()
            return window.isEmpty ? .nan : window[window.count / 2]
        }
        let (tenth, fiftieth) = (rss(afterClip: 10), rss(afterClip: clipCount))
        print(String(format: "\n%d clips played in turn, 1.5 s each (%d pages shown): the window's RSS %.0f MiB after the 10th, %.0f MiB after the 50th, peak %.0f MiB",
                     clipCount, pages, tenth, fiftieth, run.peakRSSMiB))
        return [("clips_in_turn_pages", Double(pages)), ("clips_in_turn_rss_after_10_mib", tenth),
                ("clips_in_turn_rss_after_50_mib", fiftieth), ("clips_in_turn_peak_rss_mib", run.peakRSSMiB)]
    }

    /// `mixed`: the 200 photos (hard links) and 50 copies of `clip`, the k-th dated (by its time) half a second after the
    /// 4k-th photo; `photos`: the 200 and 50 more links in the clips' places; `clips`: the 50 clips alone.
    private static func makeFolders(photoFolder: String, clip: String, mixed: String, photos: String, clips: String) throws {
        let files = FileManager.default
        for folder in [mixed, photos, clips] {
            try? files.removeItem(atPath: folder)
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let names = try files.contentsOfDirectory(atPath: photoFolder).filter { $0.hasSuffix(".jpg") }.sorted()
        guard names.count >= 4 * clipCount else { throw BenchError("\(photoFolder) holds \(names.count) photos, not 200") }
        for name in names {
            try files.linkItem(atPath: photoFolder + "/" + name, toPath: mixed + "/" + name)
            try files.linkItem(atPath: photoFolder + "/" + name, toPath: photos + "/" + name)
        }
        for k in 1...clipCount {
            let beside = photoFolder + "/" + names[4 * k - 1]
            let taken = try files.attributesOfItem(atPath: beside)[.modificationDate] as? Date ?? Date()
            let copy = mixed + String(format: "/VID_%04d.mp4", k)
            try files.copyItem(atPath: clip, toPath: copy)
            try files.setAttributes([.modificationDate: taken.addingTimeInterval(0.5)], ofItemAtPath: copy)
            try files.linkItem(atPath: copy, toPath: clips + String(format: "/VID_%04d.mp4", k))
            try files.linkItem(atPath: beside, toPath: photos + "/" + names[4 * k - 1].replacingOccurrences(of: ".jpg", with: "B.jpg"))
        }
    }
}
