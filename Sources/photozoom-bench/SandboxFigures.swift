import CMalloc
import Foundation
import Imaging
import Pixels
import Sandbox
import SystemPackage

/// What the decoders' sandbox costs a decode: a 12 MP JPEG (4000x3000, made from a bundled photo) decoded
/// to cover 1080p, here and through the pool of decoder processes (one decoder, reused, as the viewer's
/// are), in turn. This process allocates as the viewer does (a picture on a mapping of its own, freed on the
/// release thread), so that "here" is what the viewer paid before the sandbox. `sandbox_overhead_ms` is the
/// median of the pairs' differences.
enum SandboxFigures {
    /// The viewer built beside the bench: its decoder mode.
    static let viewer = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("photozoom").path

    static func measure(source: String) throws -> [(String, Double)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-sandbox-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = try ImageDecoder.decodeHere(data: PhotoFile.read(FilePath(source))).image.scaled(toWidth: 4000, height: 3000)
        guard let jpeg = JPEGEncoder.encode(photo, quality: 92) else { return [] }
        let path = folder + "/12mp.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let file = FilePath(path), screen = (width: 1920, height: 1080)
        _ = photozoom_malloc_mmap_threshold(128 << 10)   // the viewer's MemoryPolicy
        LargeImageRelease.start()

        print("\nThe decoders' sandbox: a 12 MP JPEG decoded to cover 1920x1080, here and in a pooled decoder, in turn\n")
        let pool = DecoderPool(executable: viewer, size: 1)
        _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB)   // the decoder is ready
        _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: screen)
        // In turn, so that the machine's drift falls on both; the overhead is the median of the pairs' differences.
        var pairs: [(here: Double, there: Double)] = []
        for _ in 0..<runs {
            let here = time { _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: screen) }
            let there = time { _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB) }
            pairs.append((here, there))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let (here, there) = (median(pairs.map(\.here)), median(pairs.map(\.there)))
        let overhead = median(pairs.map { $0.there - $0.here })
        print("| what | runs | median ms |")
        print("|---|---:|---:|")
        print(String(format: "| in the viewer's process | %d | %.2f |", runs, here))
        print(String(format: "| in a pooled decoder process (%@) | %d | %.2f |", pool.decodesInProcess ? "NOT STARTED" : "confined", runs, there))
        print(String(format: "| the difference, pair by pair | %d | %.2f |", runs, overhead))
        return [("sandbox_decode_in_process_ms", here), ("sandbox_decode_pooled_ms", there), ("sandbox_overhead_ms", overhead)]
    }

    static let runs = 40

    private static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
