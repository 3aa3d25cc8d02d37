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
        let camera = folder + "/camera.jpg"
        try Data(CameraJPEG.bytes(photo: photo, thumbnail: photo.scaled(toWidth: 160, height: 120))).write(to: URL(fileURLWithPath: camera))
        let pool = DecoderPool(executable: viewer, size: 1)
        func decodes(_ file: String) -> (here: Double, there: Double, overhead: Double) {
            pairs(here: { _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(FilePath(file)), atLeast: screen) },
                  there: { _ = try? pool.decode(file: FilePath(file), atLeast: screen, colour: .sRGB) })
        }
        // The picture a grid cell shows at once, before its thumbnail is decoded (this process routes no decode).
        func placeholders(_ file: String) -> (here: Double, there: Double, overhead: Double) {
            pairs(here: { _ = EmbeddedThumbnail.read(path: FilePath(file)) }, there: { _ = pool.embeddedThumbnail(file: FilePath(file), colour: .sRGB) })
        }
        let (jpegFigures, heicFigures) = (decodes(path), decodes(folder + "/12mp.heic"))
        let (exifFigures, itemFigures) = (placeholders(camera), placeholders(folder + "/12mp.heic"))
        print("| what | in the viewer's process | in a pooled decoder process (\(pool.decodesInProcess ? "NOT STARTED" : "confined")) | the difference, pair by pair |")
        print("|---|---:|---:|---:|")
        for (name, figures) in [("JPEG, 4000x3000, to cover 1920x1080", jpegFigures),
                                ("HEIC, a phone's (4032x3024, 512x512 tiles), to cover 1920x1080", heicFigures),
                                ("a camera JPEG's EXIF thumbnail (160x120)", exifFigures),
                                ("that HEIC's thumbnail item (320x240)", itemFigures)] {
            print(String(format: "| %@ | %.2f | %.2f | %.2f |", name, figures.here, figures.there, figures.overhead))
        }
        return [("sandbox_decode_in_process_ms", jpegFigures.here), ("sandbox_decode_pooled_ms", jpegFigures.there),
                ("sandbox_overhead_ms", jpegFigures.overhead),
                ("heic_decode_in_process_ms", heicFigures.here), ("heic_decode_pooled_ms", heicFigures.there),
                ("placeholder_exif_pooled_ms", exifFigures.there), ("placeholder_heic_item_pooled_ms", itemFigures.there)]
    }

    static let screen = (width: 1920, height: 1080)

    static let runs = 40

    /// The medians of `runs` of `here` (in this process, as the viewer decoded before the sandbox) and `there`
    /// (through the pool), in turn, so that the machine's drift falls on both; the first of each is not counted
    /// (the decoder opens the format's library).
    private static func pairs(here: () -> Void, there: () -> Void) -> (here: Double, there: Double, overhead: Double) {
        here()
        there()
        var pairs: [(here: Double, there: Double)] = []
        for _ in 0..<runs { pairs.append((time(here), time(there))) }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (median(pairs.map(\.here)), median(pairs.map(\.there)), median(pairs.map { $0.there - $0.here }))
    }

    private static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
