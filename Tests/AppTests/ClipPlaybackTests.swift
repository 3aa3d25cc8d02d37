import Animation
import Foundation
import Geometry
import Input
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport
@testable import App

/// A clip in the grid and the viewer, headless on the app's clock: its cell shows its poster with its length; opened,
/// its pictures play at their own rate once it lands, space pauses them, and one cut short plays what it has and then
/// says so in one line.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipPlaybackTests {
    let clock = ManualClock()
    let log = CapturedLog()

    func app(_ kinds: [TestClips.Kind], opening: Int? = nil) throws -> (PhotoViewerApp, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try TestClips.make(kinds, in: folder)
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock, logger: log.logger)
        if let opening { app.openWhenLoaded(opening) }
        app.settle(stepping: clock)
        return (app, folder)
    }

    /// Runs frames for `seconds`; the pictures the viewer showed, each once.
    func play(_ app: PhotoViewerApp, seconds: Double) -> [PixelImage] {
        var shown: [PixelImage] = []
        let end = clock.now + seconds
        while clock.now < end - 1e-9 {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
            if let image = app.viewer?.image, shown.last !== image { shown.append(image) }
        }
        return shown
    }

    @Test func aClipsCellShowsItsPosterWithItsLength() throws {
        let (app, _) = try app([.tone, .webm])
        let names = app.photos.map(\.name)
        for (name, length) in [("tone.mp4", "0:02"), ("bars.webm", "0:01")] {
            let i = try #require(names.firstIndex(of: name))
            let badge = app.grid.cell(at: i).children.first { $0.name == "cell.\(i).badge" }
            #expect(badge?.text?.string == length, "\(name)")
            #expect(app.grid.picture(at: i) != nil)
        }
    }

    @Test func anOpenClipPlaysItsPicturesAtTheirOwnRateAndStopsOnItsLast() throws {
        let (app, _) = try app([.moving], opening: 0)
        #expect(app.viewer?.photoName == "moving.mp4")
        let first = play(app, seconds: 1)
        // 30 pictures a second on a 60 Hz clock: one every other tick.
        #expect((29...31).contains(first.count), "\(first.count) pictures in 1 s")
        let a = first[first.count / 2], b = first[first.count / 2 + 1]
        #expect(memcmp(a.bytes, b.bytes, a.stride * a.height) != 0, "the pattern moves")
        let rest = play(app, seconds: 1.5)
        #expect((app.animationFramesShown ?? 0) >= 58 && (app.animationFramesShown ?? 0) <= 60, "\(app.animationFramesShown ?? 0)")
        #expect(rest.count < 35 && app.nextAnimationFrame == nil, "it ends on its last picture: nothing more is due")
        #expect(log.messages.allSatisfy { !$0.hasPrefix("warning") }, "\(log.messages)")
    }

    @Test func spacePausesAClipAndPlaysItOn() throws {
        let (app, _) = try app([.moving], opening: 0)
        _ = play(app, seconds: 0.3)
        _ = app.handle(.key(name: "space", modifiers: []))
        let shown = app.animationFramesShown
        #expect(play(app, seconds: 0.5).count <= 1 && app.animationFramesShown == shown, "nothing moves while paused")
        _ = app.handle(.key(name: "space", modifiers: []))
        #expect(play(app, seconds: 0.3).count >= 8)
    }

    @Test func aClipCutShortPlaysWhatItHasThenSaysSoOnce() throws {
        let (app, _) = try app([.cut], opening: 0)
        _ = play(app, seconds: 4.5)
        let shown = app.animationFramesShown ?? 0
        #expect(shown > 30 && shown < 120, "about half its 4 s: \(shown) pictures")
        let warnings = log.messages.filter { $0.hasPrefix("warning") }
        #expect(warnings.count == 1, "\(log.messages)")
        #expect(warnings.first?.contains("cut.mp4") == true && warnings.first?.contains("cut short") == true, "\(warnings)")
    }

    /// A Live Photo (IMG_0042.JPG with IMG_0042.MOV): one cell, badged "LIVE"; opened, space plays its movie once,
    /// then its still is back.
    @Test func spaceOnALivePhotoPlaysItsMovieThenItsStillIsBack() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "IMG_0042.JPG")
        let made = try TestClips.make([.numbered], in: folder)
        try FileManager.default.moveItem(atPath: made[.numbered]!, toPath: folder.path + "/IMG_0042.MOV")
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        #expect(photos.map(\.name) == ["IMG_0042.JPG"])
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock, logger: log.logger)
        app.settle(stepping: clock)
        #expect(app.grid.cell(at: 0).children.first { $0.name == "cell.0.badge" }?.text?.string == "LIVE")
        app.openWhenLoaded(0)
        app.settle(stepping: clock)
        let still = try #require(app.viewer?.image)
        #expect(play(app, seconds: 0.5).allSatisfy { $0 === still }, "a still until asked")
        _ = app.handle(.key(name: "space", modifiers: []))
        let moving = play(app, seconds: 1).filter { $0 !== still }
        #expect(moving.count >= 25, "its movie plays: \(moving.count) pictures")
        _ = play(app, seconds: 1.5)
        #expect(app.viewer?.image === still, "its still is back once the movie is over")
        #expect(app.nextAnimationFrame == nil)
    }
}
