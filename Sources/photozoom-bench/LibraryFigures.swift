import Foundation
import Imaging
import Pixels

/// `photozoom-bench library`: a tree of 100,000 small photos with EXIF dates in 1,000 folders (made here,
/// in a temporary folder, and removed), opened in a real window: cold (no index: every photo's first bytes
/// read, the index written) and warm (the index there: the timeline laid out from it). `library-1m`: the same
/// with a million in 10,000 folders over 25 years, its keys `library_1m_…`.
enum LibraryFigures {
    struct Tree {
        let photos: Int, folders: Int, years: Int
        static let hundredThousand = Tree(photos: 100_000, folders: 1000, years: 3)
        static let million = Tree(photos: 1_000_000, folders: 10_000, years: 25)
    }

    static func measure(_ tree: Tree = .hundredThousand) throws -> [(String, Double)] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-library-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = Date()
        try makeTree(at: root, tree)
        print("made \(tree.photos) photos in \(tree.folders) folders in \(String(format: "%.1f", -made.timeIntervalSinceNow)) s")
        let figures = try measure(root: root, tree)
        guard tree.photos == Tree.million.photos else { return figures }
        return figures.map { name, value in ("library_1m_" + (name.hasPrefix("library_") ? String(name.dropFirst("library_".count)) : name), value) }
    }

    private static func measure(root: String, _ tree: Tree) throws -> [(String, Double)] {
        let photoCount = tree.photos, folderCount = tree.folders

        let cache = root + "-cache"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let bench = WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: root)
        let script = "wait 3000\nkey q\n"
        let cold = try bench.play(script, cacheHome: cache)
        // Warm, then a search typed: a year, and a month after it ("2023", "2023 mar").
        let search = "wait 3000\nkey slash\nwait 300\nkey 2\nkey 0\nkey 2\nkey 3\nwait 500\nkey space\nkey m\nkey a\nkey r\nwait 1000\nkey Escape\nkey Escape\nwait 500\nkey q\n"
        let warms = try (0..<3).map { _ in try bench.play(script, cacheHome: cache) }
        let warm = warms.sorted { $0.milliseconds("first photo on screen") < $1.milliseconds("first photo on screen") }[1]
        let searched = try bench.play(search, cacheHome: cache)
        let scrubbed = try scrub(bench, cacheHome: cache)
        let zoomed = try views(bench, cacheHome: cache)

        print("\n| \(photoCount) photos in \(folderCount) folders, 1920x1080 window | from the index | listed and dated | first photo | grid complete | peak RSS |")
        print("|---|---:|---:|---:|---:|---:|")
        for (name, run) in [("cold (no index)", cold), ("warm (median of 3)", warm)] {
            print(String(format: "| %@ | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f MiB |", name, rememberedMs(run.log), indexingMs(run.log),
                         run.milliseconds("first photo on screen"), run.milliseconds("grid complete"), run.peakRSSMiB))
        }
        // Each key's search over the 100,000 (the first one also folds every photo's names once).
        print(String(format: "\nwarm, then a search typed: peak RSS %.0f MiB", searched.peakRSSMiB))
        let searches = searched.log.split(separator: "\n").filter { $0.contains("search “2") }
        let searchMs = searches.compactMap { $0.components(separatedBy: " photos in ").last?.split(separator: " ").first.flatMap { Double($0) } }
        for line in searches { print(line.replacingOccurrences(of: "photozoom: ", with: "")) }
        print(String(format: "\nthe date scrubber dragged from the newest photo to the oldest in 1.5 s and back in 1.5 s: %d frames, "
                     + "%llu refreshes missed (in %d frames), frame intervals p50 %.1f ms, p99 %.1f, max %.1f; RSS %.0f MiB before, %.0f after",
                     scrubbed.frames, scrubbed.pacing.missedRefreshes, scrubbed.pacing.framesThatMissed, FramePacing.ms(scrubbed.pacing.all, 50),
                     FramePacing.ms(scrubbed.pacing.all, 99), FramePacing.ms(scrubbed.pacing.all, 100), scrubbed.rssBefore, scrubbed.rssAfter))
        print(String(format: "\nYears, a year's Months, a month's Days by taps, back twice, All Photos: %d frames in motion, "
                     + "%llu refreshes missed (in %d frames), frame intervals p50 %.1f ms, p99 %.1f, max %.1f; a tap to its first frame at most %.0f ms",
                     zoomed.pacing.framesInMotion, zoomed.pacing.missedRefreshes, zoomed.pacing.framesThatMissed, FramePacing.ms(zoomed.pacing.all, 50),
                     FramePacing.ms(zoomed.pacing.all, 99), FramePacing.ms(zoomed.pacing.all, 100), FramePacing.ms(zoomed.pacing.inputToPhoton, 100)))
        let coldIndexing = indexingMs(cold.log)
        return [("library_cold_indexing_photos_per_s", Double(photoCount) / coldIndexing * 1000),
                ("library_cold_first_photo_ms", cold.milliseconds("first photo on screen")),
                ("library_warm_from_index_ms", rememberedMs(warm.log)),
                ("library_warm_indexing_ms", indexingMs(warm.log)),
                ("library_warm_first_photo_ms", warm.milliseconds("first photo on screen")),
                ("library_warm_grid_complete_ms", warm.milliseconds("grid complete")),
                ("library_warm_rss_mib", warm.peakRSSMiB),
                ("library_search_rss_mib", searched.peakRSSMiB),
                ("library_search_first_key_ms", searchMs.first ?? .nan),
                ("library_search_key_max_ms", searchMs.dropFirst().max() ?? .nan),
                ("scrub_missed", Double(scrubbed.pacing.missedRefreshes)), ("scrub_rss_growth_mib", scrubbed.rssAfter - scrubbed.rssBefore),
                ("views_zoom_missed", Double(zoomed.pacing.missedRefreshes)),
                ("views_tap_to_frame_ms", FramePacing.ms(zoomed.pacing.inputToPhoton, 100))]
    }

    /// A warm launch, the pointer to the right edge (the scrubber shows), a press on its handle at the rail's foot (the
    /// newest photo), up to its top in 1.5 s and down again in 1.5 s: the frames while it is dragged, and the window's RSS
    /// just before the press and a second after the release.
    static func scrub(_ bench: WindowBench, cacheHome: String) throws -> (frames: Int, pacing: FramePacing, rssBefore: Double, rssAfter: Double) {
        let x = 1915, foot = 1080 - 56 - 4 - 22, top = 56 + 4 + 22
        let script = "wait 3000\nmove \(x) 600\nwait 400\ndown \(x) \(foot)\nmove \(x) \(top) 1500\nmove \(x) \(foot) 1500\nup\nwait 1000\nkey q\n"
        let run = try bench.play(script, cacheHome: cacheHome)
        let frames = run.trace.filter { $0.phase == "scrubbingDates" }
        // Every frame of the drag counts as in motion; the one after the last shows the release.
        let pacing = FramePacing(frames.map { $0.moving() })
        let rss = { (at: Double) in run.rssSamples[min(run.rssSamples.count - 1, max(0, Int(at / 0.05)))] }
        return (frames.count, pacing, rss(3.3), rss(run.seconds - 0.3))
    }

    /// A warm launch, then `Ctrl+1` (Years), a tap on a year (its Months zoom in, the key photo under the finger), a tap
    /// at the same place (that month's Days), `Escape` twice (back out to Years) and `Ctrl+4`: the frames in motion.
    static func views(_ bench: WindowBench, cacheHome: String) throws -> (frames: Int, pacing: FramePacing) {
        let step = "wait 1200\n", at = "tap 700 200\n"
        let script = "wait 3000\nkey ctrl+1\n" + step + at + step + at + step + "key Escape\n" + step + "key Escape\n" + step
            + "key ctrl+4\n" + step + "key q\n"
        let run = try bench.play(script, cacheHome: cacheHome)
        let start = run.trace.first?.time ?? 0
        let frames = run.trace.filter { $0.time >= start + 2.9 }
        return (frames.count, FramePacing(frames))
    }

    /// What `--verbose` says the tree took to list and date: "library: in 1234 ms, …" (warm, on its own thread,
    /// after the first screen).
    static func indexingMs(_ log: String) -> Double { milliseconds(after: "library: in ", in: log) }

    /// What `--verbose` says the timeline took to read from the index: "… as the index remembers them, in 150 ms; …".
    static func rememberedMs(_ log: String) -> Double { milliseconds(after: "as the index remembers them, in ", in: log) }

    private static func milliseconds(after words: String, in log: String) -> Double {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(words) }),
              let ms = line.components(separatedBy: words).last?.split(separator: " ").first.flatMap({ Double($0) }) else { return .nan }
        return ms
    }

    /// The cameras the photos are taken with, in turn.
    static let cameras = [("Apple", "iPhone 15 Pro"), ("Apple", "iPhone 11"), ("samsung", "Galaxy S23"), ("Canon", "Canon EOS R6"),
                          ("Google", "Pixel 8")]

    /// 16x16 JPEGs with a camera's EXIF block (dates spread evenly over `tree.years` years from 2022 back, 90 photos
    /// a day, cameras in turn), the same number in each folder.
    static func makeTree(at root: String, _ tree: Tree = .hundredThousand) throws {
        let picture = PixelImage(width: 16, height: 16, isOpaque: true)
        let perFolder = tree.photos / tree.folders, days = tree.photos / 90, firstYear = 2025 - tree.years
        for f in 0..<tree.folders {
            let first = f * perFolder, year = firstYear + first / 90 * tree.years / max(days, 1)
            let folder = root + String(format: "/%04d/%05d", year, f)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for i in first..<first + perFolder {
                // Day `i / 90` of the span, 336 days a year (twelve months of 28), a photo every 10 minutes from 6:00.
                let day = i / 90 * tree.years * 336 / max(days, 1), hour = i % 90 / 6, minute = i % 6 * 10
                let date = String(format: "%04d:%02d:%02d %02d:%02d:00", firstYear + day / 336, 1 + day / 28 % 12, 1 + day % 28, 6 + hour, minute)
                let exif = ExifBlock(dateTaken: (date, "+01:00"), camera: cameras[i % cameras.count])
                guard let bytes = JPEGEncoder.encode(picture, quality: 80, exif: exif) else { throw BenchError("a JPEG could not be made") }
                try Data(bytes).write(to: URL(fileURLWithPath: folder + String(format: "/IMG_%07d.jpg", i)))
            }
        }
    }
}
