import Dispatch
import Foundation
import Imaging
import Pixels
import Recording
import TestSupport

/// The formats' figures of `make bench` (`BENCH=formats` alone), in a real window on the same 200
/// camera-sized photos as the window figures: the grid of the photos as a phone's HEICs against the same
/// photos as JPEG, a tap to sharp in each, a photo opened on its own in each format, and a 1080p animated
/// WebP playing.
enum FormatFigures {
    /// The JPEGs as phone HEICs (`PhoneHEIC`: 4032x3024 in 512x512 tiles, a 320x240 thumbnail item, their EXIF).
    static func measure(jpegFolder: String) throws -> [(String, Double)] {
        let kept = ProcessInfo.processInfo.environment["PHOTOZOOM_BENCH_PHOTOS"]
        let heicFolder = (kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-\(getpid())").path) + "-phone-heic"
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: heicFolder) } }
        try makeHEICs(from: jpegFolder, in: heicFolder)
        let viewer = WindowBench.viewerBesideThisBench
        let jpegs = WindowBench(viewer: viewer, folder: jpegFolder), heics = WindowBench(viewer: viewer, folder: heicFolder)

        print("\nThe grid of \(WindowFigures.photoCount) photos at launch, as JPEG (4000x3000) and as a phone's HEIC (4032x3024, tiled), "
              + "and a tap on a photo, from its press to the photo sharp at fit (a warm cache; the median of 3):\n")
        print("| folder | grid lit, cold | grid complete, cold | grid complete, warm (median of 5) | press to sharp |")
        print("|---|---:|---:|---:|---:|")
        var figures: [(String, Double)] = []
        for (name, bench) in [("JPEG", jpegs), ("HEIC", heics)] {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-\(name)-cache-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: cache) }
            let cold = try bench.play(WindowBench.launch, cacheHome: cache)
            let warm = try (0..<5).map { _ in try bench.play(WindowBench.launch, cacheHome: cache).milliseconds("grid complete") }.sorted()[2]
            let taps = try (0..<3).map { _ in
                WindowFigures.pressToSharp(try bench.play(tapOnce, cacheHome: cache).trace, fitWidth: 1440)
            }.sorted()
            print(String(format: "| %@ | %.0f ms | %.0f ms | %.0f ms | %.0f ms |", name, cold.milliseconds("grid filled"),
                         cold.milliseconds("grid complete"), warm, taps[1]))
            let key = name.lowercased()
            figures += [("\(key)_grid_cold_lit_ms", cold.milliseconds("grid filled")), ("grid_cold_\(key)_ms", cold.milliseconds("grid complete")),
                        ("grid_warm_\(key)_ms", warm), ("\(key)_tap_to_sharp_ms", taps[1])]
        }
        return try figures + singles(jpegFolder: jpegFolder, heicFolder: heicFolder, bench: jpegs) + playAnimation(jpegFolder: jpegFolder, viewer: viewer)
    }

    /// Waits for the grid, opens the photo at the top left and waits for it to be sharp.
    static let tapOnce = "wait 1500\ntap 437 180\nwait 1500\nkey q\n"

    /// One photo (the 100th) opened on its own in each format: launch to sharp in the window.
    private static func singles(jpegFolder: String, heicFolder: String, bench: WindowBench) throws -> [(String, Double)] {
        let singles = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-singles-\(getpid())").path
        try FileManager.default.createDirectory(atPath: singles, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: singles) }
        try makeSingles(from: jpegFolder + "/IMG_0100.jpg", heic: heicFolder + "/IMG_0100.heic", in: singles)
        print("\nOne photo opened on its own, launch to sharp in the window (median of 3):\n")
        print("| format | file | sharp after |")
        print("|---|---:|---:|")
        var figures: [(String, Double)] = []
        for (kind, label) in [("jpg", "JPEG"), ("heic", "HEIC, a phone's (tiled)"), ("heic-untiled", "HEIC, one picture (heif-enc)"),
                              ("avif", "AVIF"), ("jxl", "JPEG XL")] {
            // Each in a folder of its own: only the one photo is decoded.
            let folder = singles + "/" + kind
            let file = folder + "/" + (try FileManager.default.contentsOfDirectory(atPath: folder).first ?? "")
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let times = try (0..<3).map { _ in try bench.play(WindowBench.launch, target: file).milliseconds("photo sharp on screen") }.sorted()
            print(String(format: "| %@ | %.1f MB | %.0f ms |", label, Double(size) / 1e6, times[1]))
            figures.append(("sharp_\(kind.replacingOccurrences(of: "-", with: "_"))_ms", times[1]))
        }
        return figures
    }

    /// The phone HEICs, two at a time, unless the folder already holds them.
    private static func makeHEICs(from jpegs: String, in folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: jpegs).filter { $0.hasSuffix(".jpg") }.sorted()
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
        guard existing != names.count else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let started = Date()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let source = jpegs + "/" + names[i]
            do {
                try PhoneHEIC.make(from: source, to: folder + "/" + names[i].replacingOccurrences(of: ".jpg", with: ".heic"),
                                   exif: PhoneHEIC.exifBlock(ofJPEG: source))
            } catch {
                failures.add(names[i])
            }
        }
        if let first = failures.first { throw BenchError("FFmpeg's x265 could not make \(first) a HEIC") }
        print(String(format: "(made %d phone HEICs in %.0f s)", names.count, -started.timeIntervalSinceNow))
    }

    /// The photo as JPEG, a phone's HEIC, a one-picture HEIC (heif-enc, x265's fastest preset, quality 75), AVIF
    /// (FFmpeg's libaom) and JPEG XL (cjxl, distance 1), a folder each.
    private static func makeSingles(from source: String, heic: String, in folder: String) throws {
        for kind in ["jpg", "heic", "heic-untiled", "avif", "jxl"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + kind, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: source, toPath: folder + "/jpg/photo.jpg")
        try FileManager.default.copyItem(atPath: heic, toPath: folder + "/heic/photo.heic")
        guard run("heif-enc", ["-q", "75", "-t", "320", "-p", "preset=ultrafast", source, "-o", folder + "/heic-untiled/photo.heic"]),
              run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libaom-av1", "-still-picture", "1", "-crf", "30",
                             "-cpu-used", "8", "-pix_fmt", "yuv420p", folder + "/avif/photo.avif"]),
              run("cjxl", [source, folder + "/jxl/photo.jxl", "-d", "1", "-e", "3"]) else {
            throw BenchError("heif-enc (libheif-examples), FFmpeg (with libaom) and cjxl (libjxl-tools) make the single photos")
        }
    }

    /// A 1920x1080 animated WebP of 90 frames at 30 a second (the photos panning), played for 10 s in
    /// a 1920x1080 window: the CPU it takes, and the intervals between its frames.
    private static func playAnimation(jpegFolder: String, viewer: String) throws -> [(String, Double)] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-animation-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/pan.webp"
        let photo = try ImageDecoder.decode(path: jpegFolder + "/IMG_0001.jpg").image
        let encoder = try WebPAnimationEncoder(width: 1920, height: 1080, method: 2)
        for i in 0..<90 {
            try encoder.add(try crop(photo, x: i * 20, y: i * 8, width: 1920, height: 1080), at: Double(i) / 30)
        }
        guard case .file(let bytes) = try encoder.finish(at: 3) else { throw BenchError("no WebP made") }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let bench = WindowBench(viewer: viewer, folder: dir)
        let run = try bench.play("wait 10000\nkey q\n", target: file)
        // From the first frame to the last: the CPU spent and the frames' intervals.
        let changes = run.animationFrameTimes
        let intervals = zip(changes.dropFirst(), changes).map { ($0 - $1) * 1000 }.sorted()
        func percentile(_ p: Double) -> Double { intervals.isEmpty ? .nan : intervals[min(intervals.count - 1, Int(Double(intervals.count) * p / 100))] }
        let cpu = run.cpuPercent(from: 2, to: 10)
        print(String(format: "\nA 1920x1080 animated WebP (90 frames, 33 ms each) playing at fit in a 1920x1080 window for 10 s: %d frames, intervals median %.1f ms, p90 %.1f, p99 %.1f, max %.1f ms; CPU %.0f %% of one core",
                     changes.count, percentile(50), percentile(90), percentile(99), intervals.last ?? .nan, cpu))
        return [("animation_interval_p50_ms", percentile(50)), ("animation_interval_p99_ms", percentile(99)),
                ("animation_cpu_percent", cpu)]
    }

    private static func crop(_ image: PixelImage, x: Int, y: Int, width: Int, height: Int) throws -> PixelImage {
        let out = PixelImage(width: width, height: height, isOpaque: true)
        let x0 = min(x, image.width - width), y0 = min(y, image.height - height)
        for row in 0..<height {
            (out.bytes + row * out.stride).copyMemory(from: image.bytes + (y0 + row) * image.stride + x0 * 4, byteCount: width * 4)
        }
        return out
    }

    /// Runs a tool to its end; whether it succeeded.
    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
