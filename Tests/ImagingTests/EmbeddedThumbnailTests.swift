import Foundation
import Glibc
import SystemPackage
import Testing
import TestSupport
@testable import Imaging

/// The thumbnail a camera embeds in a photo's EXIF block, read from the head of the file.
@Suite struct EmbeddedThumbnailTests {
    /// A 16:9 photo's 160×120 thumbnail comes with bars; they are cropped, and the picture is the
    /// thumbnail's (not a decode of the photo, which is another colour here).
    @Test func readsTheThumbnailAndCropsACamerasBars() throws {
        let photo = TestImages.solid(width: 1600, height: 900, argb: 0xFF80_8080)
        let bytes = CameraJPEG.bytes(photo: photo, thumbnail: CameraJPEG.quadrants(width: 160, height: 120, bar: 15))
        let thumbnail = try #require(EmbeddedThumbnail.read(jpegHead: bytes[...]))
        #expect(thumbnail.width == 160 && thumbnail.height == 90)
        expectQuadrants(thumbnail, quadrants, tolerance: 24)
        #expect(thumbnail.rgba(x: 40, y: 2).r > 160, "no black bar left at the top")
    }

    /// The photo's orientation turns its thumbnail upright too.
    @Test func theThumbnailStandsUprightByThePhotosOrientation() throws {
        let photo = TestImages.solid(width: 1600, height: 900, argb: 0xFF80_8080)
        let bytes = CameraJPEG.bytes(photo: photo, thumbnail: CameraJPEG.quadrants(width: 160, height: 90), orientation: .right)
        let thumbnail = try #require(EmbeddedThumbnail.read(jpegHead: bytes[...]))
        #expect(thumbnail.width == 90 && thumbnail.height == 160)
        // Turned 90° clockwise: the stored bottom-left comes to the top-left.
        expectQuadrants(thumbnail, [blue, red, white, green], tolerance: 24)
    }

    @Test func aPhotoWithoutOneHasNone() throws {
        let photo = TestImages.solid(width: 320, height: 240, argb: 0xFF80_8080)
        #expect(EmbeddedThumbnail.read(jpegHead: CameraJPEG.bytes(photo: photo, thumbnail: nil)[...]) == nil)
        #expect(EmbeddedThumbnail.read(jpegHead: JPEGEncoder.encode(photo)![...]) == nil)
        #expect(EmbeddedThumbnail.read(path: FilePath(FixturePaths.fixture("rgb8.png"))) == nil)
    }

    /// Every cut of a camera file's head gives the thumbnail or nothing: never a crash or garbage.
    @Test func aTruncatedHeadGivesTheThumbnailOrNothing() throws {
        let photo = TestImages.solid(width: 64, height: 48, argb: 0xFF80_8080)
        let bytes = CameraJPEG.bytes(photo: photo, thumbnail: CameraJPEG.quadrants(width: 32, height: 24))
        for length in 0..<bytes.count {
            if let thumbnail = EmbeddedThumbnail.read(jpegHead: bytes[..<length]) {
                #expect(thumbnail.width == 32 && thumbnail.height == 24)
            }
        }
    }

    /// Read from the file: only its head, and only from a regular file (a FIFO named `.jpg` does not
    /// block the reader).
    @Test func readsFromAFileButNeverWaitsOnAFIFO() throws {
        let folder = try TemporaryFolder()
        let photo = TestImages.solid(width: 800, height: 600, argb: 0xFF80_8080)
        let path = folder.path + "/camera.jpg"
        try Data(CameraJPEG.bytes(photo: photo, thumbnail: CameraJPEG.quadrants(width: 160, height: 120))).write(to: URL(fileURLWithPath: path))
        #expect(EmbeddedThumbnail.read(path: FilePath(path))?.width == 160)
        let fifo = folder.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(EmbeddedThumbnail.read(path: FilePath(fifo)) == nil)
    }
}
