import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// What a clip shows, written out: a screenshot is the picture on screen at its time, and a recording of the viewer
/// while it plays holds its pictures in turn (its sound is not recorded).
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipExportTests {
    /// The numbered clip's picture a screenshot or recording shows, from the middle of a 320x300 window.
    static func frameShown(_ image: PixelImage) -> Int {
        TestClips.frameNumber(shownAs: image.pixel(x: image.width / 2, y: image.height / 2))
    }

    @Test func aScreenshotOfAPlayingClipIsThePictureShownAtItsTime() throws {
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.numbered], in: folder)[.numbered])
        let script = try folder.write("shots.txt", Array("wait 500\nscreenshot \(folder.path)/half.png\nwait 700\nscreenshot \(folder.path)/later.png\n".utf8))
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "320x300", "--script", script, clip])
        #expect(status == 0, "\(errors)")
        let half = Self.frameShown(try ImageDecoder.decode(path: folder.path + "/half.png").image)
        let later = Self.frameShown(try ImageDecoder.decode(path: folder.path + "/later.png").image)
        // It plays from the launch: at 0.5 s its 15th picture or so (30 a second), 0.7 s later 21 on.
        #expect((12...18).contains(half), "0.5 s in: picture \(half)")
        #expect(abs(later - half - 21) <= 2, "0.7 s later: picture \(later)")
    }

    /// Recorded as PNGs (a folder: no lossy encoding between the picture and the test), one a frame at 30 a second.
    @Test func aRecordingWhileAClipPlaysHoldsItsPicturesInTurn() throws {
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.numbered], in: folder)[.numbered])
        let script = try folder.write("play.txt", Array("wait 1500\n".utf8))
        let recording = folder.path + "/played/"
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "320x300", "--fps", "30",
                                                      "--script", script, "--record", recording, clip])
        #expect(status == 0, "\(errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: recording).filter { $0.hasSuffix(".png") }.sorted()
        let numbers = try names.map { Self.frameShown(try ImageDecoder.decode(path: recording + $0).image) }
        #expect(numbers.count >= 45, "\(numbers.count) frames in 1.5 s")
        // The first frame is the screen as it settled, before the first tick: then each frame the next picture.
        #expect(numbers.first == 0 && Array(numbers.dropFirst()) == Array(0..<numbers.count - 1), "in turn: \(numbers)")
    }
}
