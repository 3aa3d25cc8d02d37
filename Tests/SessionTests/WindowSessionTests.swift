import Animation
import App
import Foundation
import Geometry
import Imaging
import Library
import Logging
import SystemPackage
import Testing
import TestSupport
import WindowSystem
import X11Platform
@testable import Session

/// A window's run as its parts decide it, in a real X window on a private Xvfb: when the pacer draws, what an
/// event or a request of the app changes, and the loop's turns up to the settled screen.
@Suite struct WindowSessionTests {
    static let logger = Logger(label: "WindowSessionTests")

    /// A window's run of the bundled photos (or `paths`), on `server`'s display.
    static func session(on server: XvfbServer, paths: [String] = [TestImages.bundledFolder], scale: Double = 1,
                        allowPresent: Bool = true, screenshot: String? = nil) throws -> WindowSession {
        try WindowSession(platform: X11Desktop(displayName: server.display, allowPresent: allowPresent, logger: logger),
                          settings: RunSettings(size: Size(width: 400, height: 300), scale: scale, fps: 30, motion: .fluid,
                                                reduceMotion: false, library: PhotoSelection.collect(paths.map { FilePath($0) }, logger: logger),
                                                trash: nil, writesPhotos: false, thumbnails: nil, logger: logger, screenshot: screenshot))
    }

    /// Paced by a timer (no X Present), frames keep to a grid of 1/30 s whatever a draw costs; after a stall the
    /// grid starts again from the late frame, so frames never burst to catch up.
    @Test func aTimerPacedWindowKeepsFramesOnAGridAndStartsAgainAfterAStall() throws {
        let server = try XvfbServer()
        let session = try Self.session(on: server, allowPresent: false)
        defer { session.close() }
        let pacer = session.pacer, interval = 1.0 / 30
        #expect(pacer.presentation == nil, "no X Present: a timer paces")
        let t0 = MonotonicClock.seconds() + 1
        #expect(pacer.frameWanted(at: t0) == .drawNow)
        pacer.endFrame(started: t0, at: t0 + 0.012, sent: true)
        // The next frame is due one interval after the last began, not after its draw ended.
        guard case .wait(let wait?) = pacer.frameWanted(at: t0 + 0.012) else { Issue.record("a frame was drawn early"); return }
        #expect(abs(wait - (interval - 0.012)) < 1e-6)
        #expect(pacer.frameWanted(at: t0 + interval) == .drawNow)
        pacer.endFrame(started: t0 + interval, at: t0 + interval + 0.005, sent: true)
        // A frame 0.5 s late: the next is due an interval after it, not at once.
        let late = t0 + 0.5
        #expect(pacer.frameWanted(at: late) == .drawNow)
        pacer.endFrame(started: late, at: late + 0.005, sent: true)
        guard case .wait(let afterStall?) = pacer.frameWanted(at: late + 0.006) else { Issue.record("frames burst after the stall"); return }
        #expect(abs(afterStall - (interval - 0.006)) < 1e-6)
    }

    /// The window's events and the app's requests, each changing what it should: a resize and a new scale reach the
    /// app in points, a drop of a photo shows that photo, a drop of text keeps the photos, and closing or quitting
    /// ends the run.
    @Test func eventsAndRequestsChangeWhatTheyShould() throws {
        let server = try XvfbServer()
        let session = try Self.session(on: server, scale: 2)
        defer { session.close() }
        #expect(session.handle(.resized(Size(width: 1000, height: 800))) == .goOn)
        #expect(session.app.size == Size(width: 500, height: 400), "window pixels at scale 2, in points")
        #expect(session.handle(.scaleChanged(1)) == .goOn)
        #expect(session.scale == 1 && session.app.pixelScale == 1)
        #expect(session.perform(.toggleFullScreen) == .goOn)

        let shown = session.app
        #expect(session.handle(.dropped([Array("a few words".utf8)])) == .goOn)
        #expect(session.app === shown, "text that names no file keeps the photos")
        let dropped = "file://" + TestImages.bundledFolder + "/chelsea.png"
        #expect(session.handle(.dropped([Array(dropped.utf8)])) == .goOn)
        #expect(session.app !== shown && session.app.photos.contains { $0.name == "chelsea.png" })

        #expect(session.handle(.closeRequested) == .end)
        #expect(session.perform(.quit) == .end)
    }

    /// Turn by turn, the loop draws the launch, lets the photos load, and ends once the screen has settled, with
    /// its screenshot written: the grid of the bundled photos, every cell filled.
    @Test func itsTurnsEndOnTheSettledScreenWithItsScreenshot() throws {
        let server = try XvfbServer()
        let folder = try TemporaryFolder()
        let shot = folder.path + "/settled.png"
        let session = try Self.session(on: server, screenshot: shot)
        defer { session.close() }
        let until = Date().addingTimeInterval(60)
        var turns = 0
        while try session.step() == .goOn, Date() < until { turns += 1 }
        #expect(session.app.isSettled, "after \(turns) turns")
        let image = try ImageDecoder.decode(path: shot).image
        #expect((image.width, image.height) == (400, 300))
        #expect((0..<session.app.photos.count).allSatisfy { session.app.grid.picture(at: $0) != nil } || session.app.photos.count > 12,
                "the cells in view show their photos")
    }
}
