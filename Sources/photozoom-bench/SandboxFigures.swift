import CMalloc
import Foundation
import Imaging
import Pixels
import Sandbox
import SystemPackage
import TestSupport

/// What the decoders' sandbox costs a decode: a 12 MP JPEG (4000x3000, made from a bundled photo) decoded
/// to cover 1080p, here and through the pool of decoder processes (one decoder, reused, as the viewer's
/// are), in turn. This process allocates as the viewer does (a picture on a mapping of its own, freed on the
/// release thread), so that "here" is what the viewer paid before the sandbox. `sandbox_overhead_ms` is the
/// median of the pairs' differences. The same photo as a phone's tiled HEIC, beside it: what a HEIC's decode
/// costs against a JPEG's, without the window.
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
        try PhoneHEIC.make(from: path, to: folder + "/12mp.heic", exif: PhoneHEIC.exifBlock(ofJPEG: path))
        _ = photozoom_malloc_mmap_threshold(128 << 10)   // the viewer's MemoryPolicy
        LargeImageRelease.start()

        print("\nThe decoders' sandbox: a 12 MP photo decoded to cover 1920x1080, here and in a pooled decoder, in turn (median ms of \(runs))\n")
        let pool = DecoderPool(executable: viewer, size: 1)
        let jpegFigures = pairs(FilePath(path), pool)
        let heicFigures = pairs(FilePath(folder + "/12mp.heic"), pool)
        print("| photo | in the viewer's process | in a pooled decoder process (\(pool.decodesInProcess ? "NOT STARTED" : "confined")) | the difference, pair by pair |")
        print("|---|---:|---:|---:|")
        for (name, figures) in [("JPEG, 4000x3000", jpegFigures), ("HEIC, a phone's (4032x3024, 512x512 tiles)", heicFigures)] {
            print(String(format: "| %@ | %.2f | %.2f | %.2f |", name, figures.here, figures.there, figures.overhead))
        }
        return [("sandbox_decode_in_process_ms", jpegFigures.here), ("sandbox_decode_pooled_ms", jpegFigures.there),
                ("sandbox_overhead_ms", jpegFigures.overhead),
                ("heic_decode_in_process_ms", heicFigures.here), ("heic_decode_pooled_ms", heicFigures.there)]
    }

    static let runs = 40

    /// The medians of `runs` decodes here and in `pool`, in turn, so that the machine's drift falls on both.
    private static func pairs(_ file: FilePath, _ pool: DecoderPool) -> (here: Double, there: Double, overhead: Double) {
        let screen = (width: 1920, height: 1080)
        _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB)   // the decoder is ready, with the format's library
        _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: screen)
        var pairs: [(here: Double, there: Double)] = []
        for _ in 0..<runs {
            let here = time { _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: screen) }
            let there = time { _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB) }
            pairs.append((here, there))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (median(pairs.map(\.here)), median(pairs.map(\.there)), median(pairs.map { $0.there - $0.here }))
    }

    private static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
