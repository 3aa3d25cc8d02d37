import Foundation
import Imaging
import Pixels
import Sandbox
import SystemPackage

/// What the decoders' sandbox costs a decode: a 12 MP JPEG (4000x3000, made from a bundled photo) decoded
/// to cover 1080p, here and through the pool of decoder processes (one decoder, reused, as the viewer's
/// are). `sandbox_overhead_ms` is the difference of the medians.
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

        print("\nThe decoders' sandbox: a 12 MP JPEG decoded to cover 1920x1080\n")
        print("| what | runs | median ms | min ms | max ms |")
        print("|---|---:|---:|---:|---:|")
        let here = report("in the viewer's process", runs: 20) {
            _ = try? ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: screen)
        }
        let pool = DecoderPool(executable: viewer, size: 1)
        _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB)   // the decoder is ready
        let there = report("in a pooled decoder process (\(pool.decodesInProcess ? "NOT STARTED" : "confined"))", runs: 20) {
            _ = try? pool.decode(file: file, atLeast: screen, colour: .sRGB)
        }
        print("\nsandbox overhead per decode: \(String(format: "%.2f", there - here)) ms")
        return [("sandbox_decode_in_process_ms", here), ("sandbox_decode_pooled_ms", there), ("sandbox_overhead_ms", there - here)]
    }
}
