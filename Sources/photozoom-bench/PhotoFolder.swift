import Dispatch
import Foundation
import Imaging
import Pixels
import SystemPackage

/// A folder of large, distinct camera-sized JPEGs made from the bundled photos, as the window
/// figures need: each source is scaled to cover `width`×`height`, and each copy is tinted and
/// mirrored its own way so that no two files decode to the same picture. Like a camera's, each
/// file carries a 160×120 EXIF thumbnail.
enum PhotoFolder {
    /// Whether `folder` holds `count` files made as `make` makes them now.
    static func isMade(count: Int, in folder: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) == count
            && EmbeddedThumbnail.read(path: FilePath(folder + "/IMG_0001.jpg")) != nil
    }

    static func make(count: Int, width: Int, height: Int, from sources: [String], in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bases = sources.compactMap { path -> PixelImage? in
            guard let decoded = try? ImageDecoder.decode(path: path) else { return nil }
            let scale = max(Double(width) / Double(decoded.image.width), Double(height) / Double(decoded.image.height))
            guard let covering = try? decoded.image.scaled(toWidth: Int((Double(decoded.image.width) * scale).rounded(.up)),
                                                height: Int((Double(decoded.image.height) * scale).rounded(.up))) else { return nil }
            return crop(covering, width: width, height: height)
        }
        guard !bases.isEmpty else { throw BenchError("no source photo could be decoded") }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let picture = variant(of: bases[i % bases.count], number: i)
            let path = folder + String(format: "/IMG_%04d.jpg", i + 1)
            guard let thumbnail = try? picture.scaled(toWidth: 160, height: 160 * picture.height / picture.width),
                  let bytes = JPEGEncoder.encode(picture, quality: 90, exif: ExifBlock(thumbnailJPEG: JPEGEncoder.encode(thumbnail))),
                  FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return failures.add(path) }
        }
        if let failed = failures.first { throw BenchError("could not write \(failed)") }
    }

    /// The middle `width`×`height` of `image`.
    private static func crop(_ image: PixelImage, width: Int, height: Int) -> PixelImage {
        let out = PixelImage(width: width, height: height)
        let x0 = (image.width - width) / 2, y0 = (image.height - height) / 2
        for y in 0..<height {
            out.bytes.advanced(by: y * out.stride)
                .copyMemory(from: image.bytes.advanced(by: (y + y0) * image.stride + x0 * 4), byteCount: width * 4)
        }
        return out
    }

    /// `base` tinted by a colour of its own, mirrored for odd numbers.
    private static func variant(of base: PixelImage, number: Int) -> PixelImage {
        let out = PixelImage(width: base.width, height: base.height)
        let t = Double(number % 29) / 29
        let gains = (r: UInt32(200 + 55 * t), g: UInt32(255 - 40 * t), b: UInt32(215 + 40 * (1 - t)))
        let mirrored = number % 2 == 1
        for y in 0..<base.height {
            let from = base.bytes.advanced(by: y * base.stride).assumingMemoryBound(to: UInt32.self)
            let to = out.bytes.advanced(by: y * out.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<base.width {
                let p = from[mirrored ? base.width - 1 - x : x]
                let r = ((p >> 16) & 0xFF) * gains.r / 255, g = ((p >> 8) & 0xFF) * gains.g / 255, b = (p & 0xFF) * gains.b / 255
                to[x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return out
    }
}

/// The files a concurrent loop could not make.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    func add(_ path: String) { lock.withLock { paths.append(path) } }
    var first: String? { lock.withLock { paths.first } }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
