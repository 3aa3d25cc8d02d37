import Foundation
import Imaging
import Pixels

/// `photozoom-bench import`: a camera import into an open library. A timeline of 2,000 dated photos is open in
/// a 1920x1080 window and a finger drags it up and down for six seconds; one second in, 500 new photos (640x480
/// JPEGs with a camera's EXIF dates, spread over the same days) are written into a new folder of the tree, as a
/// card reader's import writes them. The figures: the frames of the drag (missed refreshes, intervals), how long
/// the change took once the finger lifted, and the frames of the cells growing in.
enum ImportFigures {
    static let libraryCount = 2000
    static let importCount = 500

    static func measure() throws -> [(String, Double)] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-import-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (i, bytes) in try photos(libraryCount, size: 64, minutesApart: 90, offset: 0).enumerated() {
            let folder = root + String(format: "/%02d", i / 100)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + String(format: "/IMG_%05d.jpg", i)))
        }
        let imports = try photos(importCount, size: 640, minutesApart: 360, offset: 45)
        let drag = (0..<5).map { _ in "move 960 300 600\nmove 960 800 600\n" }.joined()
        let script = "wait 800\ndown 960 800\n" + drag + "up\nwait 2500\nkey q\n"
        let bench = WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: root)
        // The import, a second into the drag, from another thread while the window runs.
        let importing = DispatchGroup()
        DispatchQueue.global().async(group: importing) {
            Thread.sleep(forTimeInterval: 1.8)
            let folder = root + "/DCIM-import"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (i, bytes) in imports.enumerated() {
                try? Data(bytes).write(to: URL(fileURLWithPath: folder + String(format: "/DSC_%04d.jpg", i)))
            }
        }
        let run = try bench.play(script)
        importing.wait()

        let dragging = FramePacing(run.trace.filter { $0.translation != nil })
        // After the finger lifts: the first frame that shows more photos is the one the change was made for.
        let lifted = run.trace.firstIndex { $0.translation == nil && $0.time > (run.trace.last { $0.translation != nil }?.time ?? 0) } ?? 0
        let growing = FramePacing(Array(run.trace[lifted...]))
        let taken = run.log.split(separator: "\n").first { $0.contains("the folder changed:") }
        let takenMs = taken.flatMap { $0.components(separatedBy: "taken in ").last?.split(separator: " ").first }.flatMap { Double($0) } ?? .nan
        print("\n| \(importCount) photos imported into an open timeline of \(libraryCount), 1920x1080 window | frames | missed refreshes | interval p50 | p99 | max |")
        print("|---|---:|---:|---:|---:|---:|")
        for (name, pacing) in [("dragging while they arrive", dragging), ("after the finger lifts: the change, cells growing in", growing)] {
            print(String(format: "| %@ | %d | %llu | %.1f ms | %.1f ms | %.1f ms |", name, pacing.framesInMotion, pacing.missedRefreshes,
                         FramePacing.ms(pacing.all, 50), FramePacing.ms(pacing.all, 99), FramePacing.ms(pacing.all, 100)))
        }
        print("the change, once the finger lifted: \(taken.map(String.init) ?? "not made") ; peak RSS \(String(format: "%.0f", run.peakRSSMiB)) MiB")
        return [("import_drag_missed_refreshes", Double(dragging.missedRefreshes)),
                ("import_drag_interval_p99_ms", FramePacing.ms(dragging.all, 99)),
                ("import_change_ms", takenMs),
                ("import_after_interval_max_ms", FramePacing.ms(growing.all, 100)),
                ("import_after_missed_refreshes", Double(growing.missedRefreshes))]
    }

    /// `count` JPEGs of `size`x`size`·3/4 with a camera's EXIF date, `minutesApart` apart from `offset` minutes
    /// into 2024: distinct pictures (a gradient of their own), so none decodes like another.
    static func photos(_ count: Int, size: Int, minutesApart: Int, offset: Int) throws -> [[UInt8]] {
        try (0..<count).map { i in
            let picture = PixelImage(width: size, height: size * 3 / 4, isOpaque: true)
            let pixels = picture.bytes.assumingMemoryBound(to: UInt32.self)
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    pixels[y * picture.stride / 4 + x] = 0xFF00_0000 | UInt32((x * 255 / size + i * 37) % 256) << 16
                        | UInt32(y * 255 / size) << 8 | UInt32(i * 91 % 256)
                }
            }
            let minute = offset + i * minutesApart
            let day = minute / 1440
            let date = String(format: "2024:%02d:%02d %02d:%02d:00", 1 + day / 28 % 12, 1 + day % 28, minute / 60 % 24, minute % 60)
            let exif = ExifBlock(dateTaken: (date, "+01:00"), camera: ("NIKON CORPORATION", "NIKON Z 6"))
            guard let bytes = JPEGEncoder.encode(picture, quality: 85, exif: exif) else { throw BenchError("a JPEG could not be made") }
            return bytes
        }
    }
}
