import Foundation
import Testing
import TestSupport
@testable import Imaging
import CHEIF
import Glibc
import SystemPackage

/// HEICs as a phone writes them: a grid of 512x512 tiles cropped to the photo, a thumbnail item, an Exif item.
@Suite struct PhoneHEICTests {
    /// 1000x700 in 2x2 tiles: the grid is put together and cropped, each quadrant in its place.
    @Test func aTiledHEICIsDecodedWholeAndCropped() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(in: folder, layout: PhoneHEIC.Layout(width: 1000, height: 700))
        let decoded = try ImageDecoder.decode(path: file)
        #expect(decoded.format == .heic)
        #expect(decoded.fullSize == (1000, 700) && decoded.image.width == 1000 && decoded.image.height == 700)
        expectQuadrants(decoded.image, quadrants, tolerance: 10)
    }

    /// The tiles go to FFmpeg's HEVC decoder, several at once on a machine of several cores.
    @Test func theTilesAreDecodedByFFmpegOnEveryCore() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(in: folder, layout: PhoneHEIC.Layout(width: 2048, height: 1536))
        _ = try ImageDecoder.decode(path: file)
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(photozoom_heif_ffmpeg_most_at_once() >= min(2, cores), "\(cores) cores")
    }

    /// The thumbnail item stands in for the photo, upright, while the tiles are decoded: read without the tiles.
    @Test func theThumbnailItemIsThePlaceholder() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(in: folder, layout: PhoneHEIC.Layout(width: 1600, height: 1200))
        let thumbnail = try #require(EmbeddedThumbnail.read(path: FilePath(file)))
        #expect((thumbnail.width, thumbnail.height) == (320, 240))
        expectQuadrants(thumbnail, quadrants, tolerance: 12)
    }

    /// A phone HEIC cut short anywhere, or with bytes of its boxes changed, has a placeholder (a small one) or none:
    /// never a crash or a hang.
    @Test func aDamagedHEICsPlaceholderIsThereOrNot() throws {
        let folder = try TemporaryFolder()
        let whole = try [UInt8](contentsOf: try Self.make(in: folder, layout: PhoneHEIC.Layout(width: 1200, height: 900)))
        var random = SeededRandom(state: 42)
        var cases = stride(from: 16, to: whole.count, by: whole.count / 23).map { Array(whole.prefix($0)) }
        for _ in 0..<20 {
            var changed = whole
            for _ in 0..<8 { changed[Int(random.next() % UInt64(min(4096, changed.count)))] = UInt8(truncatingIfNeeded: random.next()) }
            cases.append(changed)
        }
        for (k, bytes) in cases.enumerated() {
            let file = try folder.write("case\(k).heic", bytes)
            if let thumbnail = EmbeddedThumbnail.read(path: FilePath(file)) {
                #expect(thumbnail.width <= EmbeddedThumbnail.maxSide && thumbnail.height <= EmbeddedThumbnail.maxSide,
                        "case \(k): \(thumbnail.width)x\(thumbnail.height)")
            }
        }
    }

    /// A HEIC without a thumbnail item has no placeholder (the grid waits for its decode).
    @Test func aHEICWithoutAThumbnailItemHasNoPlaceholder() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(in: folder, layout: PhoneHEIC.Layout(width: 600, height: 400, thumbnail: nil))
        #expect(EmbeddedThumbnail.read(path: FilePath(file)) == nil)
    }

    static func make(in folder: TemporaryFolder, layout: PhoneHEIC.Layout, name: String = "IMG_0001.HEIC") throws -> String {
        let source = try folder.write("quadrants.png", PNGWriter.encode(CameraJPEG.quadrants(width: 400, height: 300))!)
        let target = folder.path + "/" + name
        try PhoneHEIC.make(from: source, to: target, layout: layout)
        return target
    }
}
