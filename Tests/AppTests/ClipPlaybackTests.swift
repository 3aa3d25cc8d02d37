import Animation
import Foundation
import Geometry
import Grid
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

    /// The title bar counts photos and clips apart, as iOS does; a Live Photo's movie is its still's, no clip.
    @Test func theCountSaysPhotosAndVideos() throws {
        let (app, folder) = try app([.tone, .webm])
        let count = { app.root.descendant(named: "titleBar.count")?.text?.string }
        #expect(count() == "2 videos")
        try AppleLivePhoto.make(still: "IMG_0003.JPG", movie: "IMG_0003.MOV", identifier: "C0UNT", in: folder)
        let both = PhotoViewerApp(photos: PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos, size: Size(width: 400, height: 300),
                                  emptyMessage: "", queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock)
        both.settle(stepping: clock)
        #expect(both.root.descendant(named: "titleBar.count")?.text?.string == "1 photo, 2 videos")
        #expect(ItemCount.words(items: 250, clips: 50) == "200 photos, 50 videos" && ItemCount.words(items: 1, clips: 0) == "1 photo")
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

    /// The numbered clip's picture the viewer shows now.
    func frameShown(_ app: PhotoViewerApp) -> Int? {
        app.viewer?.image.map { TestClips.frameNumber(shownAs: $0.pixel(x: $0.width / 2, y: $0.height / 2)) }
    }

    /// A finger on the scrub bar at `fraction` of its length, held (`lift` false) or let go.
    func pressScrubBar(_ app: PhotoViewerApp, at fraction: Double, lift: Bool = true) throws {
        let controls = try #require(app.viewer?.bar.clipControls)
        let track = try #require(controls.root.descendant(named: "viewer.clipControls.track"))
        let rail = track.convert(track.bounds, to: nil)
        let point = Point(x: rail.minX + rail.width * fraction, y: rail.midY)
        _ = app.handle(.pointerDown(at: point, button: 1, time: clock.now))
        if lift { _ = app.handle(.pointerUp(at: point, button: 1, time: clock.now)) }
    }

    @Test func aClipsControlsShowItsTimeAndTheScrubBarTakesItThere() throws {
        let (app, _) = try app([.numbered], opening: 0)
        _ = play(app, seconds: 0.5)
        let controls = try #require(app.viewer?.bar.clipControls)
        #expect(controls.isShown)
        let length = controls.root.descendant(named: "viewer.clipControls.length")?.text?.string
        #expect(length == "0:02", "its length: \(length ?? "none")")
        _ = app.handle(.key(name: "space", modifiers: []))
        #expect(controls.root.descendant(named: "viewer.clipControls.play")?.text?.string == "▶", "paused: the play button")
        try pressScrubBar(app, at: 0.5)
        _ = play(app, seconds: 0.1)
        let middle = try #require(frameShown(app))
        #expect((29...31).contains(middle), "half way along its 60 pictures: \(middle)")
        try pressScrubBar(app, at: 0.25)
        _ = play(app, seconds: 0.1)
        let quarter = try #require(frameShown(app))
        #expect((14...16).contains(quarter), "a quarter of the way: \(quarter)")
        #expect(play(app, seconds: 0.3).count <= 1, "and still paused there")
        _ = app.handle(.key(name: "space", modifiers: []))
        _ = play(app, seconds: 0.5)
        #expect((frameShown(app) ?? 0) > quarter + 10, "playing on from there")
    }

    @Test func aDragAlongTheScrubBarIsNotAPageTurn() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "a.png")
        try TestClips.make([.numbered], in: folder)
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock, logger: log.logger)
        let clip = try #require(photos.firstIndex { $0.name == "numbered.mp4" })
        app.openWhenLoaded(clip)
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "space", modifiers: []))
        try pressScrubBar(app, at: 0.1, lift: false)
        let rail = try #require(app.viewer?.bar.clipControls.root.descendant(named: "viewer.clipControls.track")).frame
        for step in 1...10 {
            clock.advanceFrame()
            _ = app.handle(.pointerMove(to: Point(x: rail.minX + rail.width * (0.1 + 0.08 * Double(step)), y: 278), time: clock.now))
            app.tick()
            app.waitForLoads()
        }
        _ = app.handle(.pointerUp(at: Point(x: rail.minX + rail.width * 0.9, y: 278), button: 1, time: clock.now))
        _ = play(app, seconds: 0.5)
        #expect(app.viewer?.index == clip, "the same page")
        let shown = try #require(frameShown(app))
        #expect((52...56).contains(shown), "where the finger let go, nine tenths along: \(shown)")
    }

    @Test func commaAndPeriodStepAPausedClipAPictureBackAndOn() throws {
        let (app, _) = try app([.numbered], opening: 0)
        _ = play(app, seconds: 0.5)
        _ = app.handle(.key(name: "space", modifiers: []))
        _ = play(app, seconds: 0.1)
        let paused = try #require(frameShown(app))
        for (key, expected) in [("period", paused + 1), ("period", paused + 2), ("comma", paused + 1), ("comma", paused)] {
            _ = app.handle(.key(name: key, modifiers: []))
            _ = play(app, seconds: 0.1)
            #expect(frameShown(app) == expected, "\(key): \(frameShown(app) ?? -1), not \(expected)")
        }
    }

    @Test func mutedClipsSayItAtTheirFoot() throws {
        let (app, _) = try app([.tone], opening: 0)
        _ = app.handle(.key(name: "m", modifiers: []))
        _ = play(app, seconds: 0.2)
        let length = app.viewer?.bar.clipControls.root.descendant(named: "viewer.clipControls.length")?.text?.string
        #expect(length == "0:02 · muted")
        #expect(log.messages.contains("info: clips muted"), "\(log.messages)")
    }

    /// A Live Photo: IMG_0042.JPG with IMG_0042.MOV (its movie the numbered clip).
    func livePhoto() throws -> (PhotoViewerApp, TemporaryFolder) {
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
        return (app, folder)
    }

    /// As on a phone, a Live Photo's movie plays once as it lands (muted), then its still is back.
    @Test func aLivePhotoPlaysItsMovieOnceAsItLandsThenItsStillIsBack() throws {
        let (app, folder) = try livePhoto()
        defer { withExtendedLifetime(folder) {} }
        app.openWhenLoaded(0)
        let moving = play(app, seconds: 1.5)
        #expect(moving.count >= 30, "its movie plays as it lands: \(moving.count) pictures")
        #expect(app.navigator.animation?.isMuted == true, "muted")
        _ = play(app, seconds: 1.5)
        let still = app.viewer?.image
        #expect(still.map { TestClips.frameNumber(shownAs: $0.pixel(x: $0.width / 2, y: $0.height / 2)) } != 59, "the still, not the movie's last")
        #expect(play(app, seconds: 0.5).count <= 1 && app.nextAnimationFrame == nil, "and it rests")
    }

    /// With "Live" off (`l`), it stays still until space, or a press held on it, plays its movie; let go, the still is
    /// back at once.
    @Test func withLiveOffSpaceOrAPressHeldPlaysTheMovie() throws {
        let (app, folder) = try livePhoto()
        defer { withExtendedLifetime(folder) {} }
        _ = app.handle(.key(name: "l", modifiers: []))
        app.openWhenLoaded(0)
        app.settle(stepping: clock)
        let still = try #require(app.viewer?.image)
        #expect(play(app, seconds: 0.5).allSatisfy { $0 === still }, "a still until asked")
        _ = app.handle(.key(name: "space", modifiers: []))
        #expect(play(app, seconds: 1).filter { $0 !== still }.count >= 25, "space plays its movie")
        _ = play(app, seconds: 1.5)
        #expect(app.viewer?.image === still, "its still is back once the movie is over")
        let centre = Point(x: 200, y: 150)
        _ = app.handle(.pointerDown(at: centre, button: 1, time: clock.now))
        let held = play(app, seconds: 1).filter { $0 !== still }
        #expect(held.count >= 15, "a press held plays it: \(held.count) pictures")
        #expect(app.interaction.phase == .holdingLive)
        _ = app.handle(.pointerUp(at: centre, button: 1, time: clock.now))
        _ = play(app, seconds: 0.1)
        #expect(app.viewer?.image === still, "let go, the still is back")
        #expect(app.interaction.phase == .idle)
    }

    /// A Motion Photo (its movie inside its JPEG) is a Live Photo too: "LIVE" in the grid; it plays its movie, read
    /// where it lies, as it lands, and while a press is held; then its still is back.
    @Test(arguments: [TestClips.Kind.motionPhoto, .microVideo])
    func aMotionPhotoPlaysItsMovieFromInsideItsJPEG(kind: TestClips.Kind) throws {
        let folder = try TemporaryFolder()
        try TestClips.make([kind], in: folder)
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock, logger: log.logger)
        app.settle(stepping: clock)
        #expect(app.grid.cell(at: 0).children.first { $0.name == "cell.0.badge" }?.text?.string == "LIVE")
        app.openWhenLoaded(0)
        let numbers = play(app, seconds: 1.5).map { TestClips.frameNumber(shownAs: $0.pixel(x: $0.width / 2, y: $0.height / 2)) }
        #expect(numbers.count >= 30 && numbers.dropFirst().dropLast() == numbers.dropFirst().dropLast().sorted(),
                "its movie's pictures in turn: \(numbers)")
        _ = play(app, seconds: 1.5)
        let still = try #require(app.viewer?.image)
        #expect(TestClips.frameNumber(shownAs: still.pixel(x: still.width / 2, y: still.height / 2)) != 59, "the still is back")
        _ = app.handle(.pointerDown(at: Point(x: 200, y: 150), button: 1, time: clock.now))
        #expect(play(app, seconds: 1).filter { $0 !== still }.count >= 15, "a press held plays it again")
        _ = app.handle(.pointerUp(at: Point(x: 200, y: 150), button: 1, time: clock.now))
        _ = play(app, seconds: 0.1)
        #expect(app.viewer?.image === still)
        #expect(log.messages.allSatisfy { !$0.hasPrefix("warning") }, "\(log.messages)")
    }
}
