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

/// An animated photo plays in the viewer on the app's clock: each frame for its own time, as many
/// plays as the file says, paused and resumed by Space, through the flights in and out, and not at
/// all once it is left.
@Suite struct AnimationPlaybackTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    let clock = ManualClock()
    let folder = try! TemporaryFolder()

    /// The app on a folder of the bundled cat and `frames.gif` (red; a green square; …; 100, 200,
    /// 50 and 300 ms; three plays), at rest.
    func app(opening: Int? = nil) throws -> PhotoViewerApp {
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "a-cat.png")
        try folder.copy(Self.fixtures + "/frames.gif", as: "b-frames.gif")
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing, placeholders: false), clock: clock)
        if let opening { app.openWhenLoaded(opening) }
        app.settle(stepping: clock)
        return app
    }

    /// Runs frames until `seconds` have passed, noting when each animation frame went up.
    @discardableResult
    func play(_ app: PhotoViewerApp, seconds: Double) -> [(time: Double, frame: Int)] {
        var changes: [(Double, Int)] = []
        var last = app.animationFramesShown
        let end = clock.now + seconds
        while clock.now < end - 1e-9 {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
            if let shown = app.animationFramesShown, shown != last {
                changes.append((clock.now, shown))
                last = shown
            }
        }
        return changes
    }

    @Test func eachFrameStaysForItsOwnTimeAndItPlaysAsOftenAsTheFileSays() throws {
        let app = try app(opening: 1)
        #expect(app.viewer?.photoName == "b-frames.gif")
        let changes = play(app, seconds: 3)
        #expect(app.animationFramesShown == 12, "four frames, three plays: \(changes)")
        let times = changes.map(\.time)
        let intervals = zip(times.dropFirst(), times).map { (($0 - $1) * 1000).rounded() }
        // Frames go up on the 60 Hz clock's ticks: each interval within a tick of the frame's own delay.
        let delays: [Double] = [100, 200, 50, 300, 100, 200, 50, 300, 100, 200, 50, 300]
        for (interval, delay) in zip(intervals, delays) {
            #expect(abs(interval - delay) <= 17, "\(intervals)")
        }
        #expect(app.nextAnimationFrame == nil, "after the last play nothing is due: the loop sleeps")
        let shown = try #require(app.viewer?.image)
        #expect(shown.pixel(x: shown.width / 2, y: shown.height / 2) >> 24 == 0xFF)
    }

    @Test func spacePausesWhereItIsAndPlaysOnFromThere() throws {
        let app = try app(opening: 1)
        play(app, seconds: 0.2)
        let before = app.animationFramesShown
        _ = app.handle(.key(name: "space", modifiers: []))
        #expect(play(app, seconds: 1).isEmpty, "nothing moves while paused")
        #expect(app.nextAnimationFrame == nil)
        _ = app.handle(.key(name: "space", modifiers: []))
        // Paused 0.1 s into a 0.2 s frame: the next goes up 0.1 s after playing on (within a tick).
        let after = play(app, seconds: 0.12)
        #expect(after.first?.frame == (before ?? 0) + 1)
        #expect(after.count == 1, "the rest of its time, then the next: \(after)")
    }

    /// The flying copy plays: while the photo zooms in from its cell and flies back into it, the
    /// copy shows the frames as they come.
    @Test func theFlyingCopyPlaysThroughTheZoomInAndTheFlyBack() throws {
        let app = try app()
        let cell = app.cellFrame(1).center
        _ = app.handle(.pointerDown(at: cell, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: cell, button: 1, time: clock.now))
        var pictures: [ObjectIdentifier] = []
        for _ in 0..<40 {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
            if let copy = app.root.descendant(named: "transitionImage"), let image = copy.image {
                let id = ObjectIdentifier(image)
                if pictures.last != id { pictures.append(id) }
            }
        }
        #expect(pictures.count >= 3, "the copy changed picture \(pictures.count - 1) times on its way in")
        app.settle(stepping: clock)
        play(app, seconds: 0.5)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        pictures = []
        for _ in 0..<15 {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
            if let image = app.root.descendant(named: "transitionImage")?.image {
                let id = ObjectIdentifier(image)
                if pictures.last != id { pictures.append(id) }
            }
        }
        #expect(pictures.count >= 2, "it plays on its way back")
    }

    /// Left for the grid, it stops: nothing is due, and its cell shows the first frame with a badge.
    @Test func inTheGridItRestsOnItsFirstFrameWithABadge() throws {
        let app = try app(opening: 1)
        play(app, seconds: 0.5)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil && app.nextAnimationFrame == nil && app.animationFramesShown == nil)
        #expect(play(app, seconds: 1).isEmpty)
        let badge = try #require(app.grid.cell(at: 1).children.first { $0.name == "cell.1.badge" })
        #expect(badge.text?.string == "GIF")
        #expect(app.grid.cell(at: 0).children.isEmpty, "the cat does not move: no badge")
    }
}
