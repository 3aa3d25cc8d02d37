import Animation
import Geometry
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// A library's timeline (photos with dates, oldest first) opens at its newest photos, and the tab
/// of the screen shown takes the grid back there.
@Suite struct TimelineTests {
    let clock = ManualClock(fps: 60)

    /// 40 photos of a day, a minute apart: 10 rows at 400x600, more than a screen.
    func timeline() -> PhotoViewerApp {
        let photos = (0..<40).map { i in
            Photo(file: FilePath(TestImages.bundledFolder + "/chelsea.png"),
                  date: PhotoDate(instant: 1_700_000_000 + Double(i) * 60, wallClock: 1_700_000_000 + Int64(i) * 60, isCaptureTime: true))
        }
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 600), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.settle(stepping: clock)
        return app
    }

    @Test func aTimelineOpensAtItsNewestPhotos() {
        let app = timeline()
        #expect(app.grid.scrollOffset > 0)
        #expect(app.grid.scrollOffset == app.grid.scrolling.range.upperBound)
        let last = app.cellFrame(39)
        #expect(last.maxY <= 600 - 56, "the newest photo shows above the tab bar")
        #expect(app.grid.index(at: last.center) == 39)
    }

    /// The screen a launch shows first (kept for the next launch) is the newest rows, indexed as the library.
    @Test func aTimelinesFirstScreenIsItsNewestRows() throws {
        let app = timeline()
        #expect(app.firstScreenPhotos.indices.contains(39) && !app.firstScreenPhotos.indices.contains(0))
        let cells = try #require(app.firstScreenShown)
        #expect(cells.map(\.index) == Array(app.firstScreenPhotos.indices))
        app.grid.scrolling.setOffset(0)
        #expect(app.firstScreenShown == nil, "not while it is scrolled away")
    }

    @Test func theLibraryTabGlidesBackToTheNewest() {
        let app = timeline()
        app.grid.scrolling.setOffset(0)
        let tab = Point(x: 100, y: 600 - 20)
        _ = app.handle(.pointerDown(at: tab, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: tab, button: 1, time: clock.now))
        #expect(app.viewer == nil, "a tap on the bar opens no photo")
        app.settle(stepping: clock)
        #expect(app.grid.scrollOffset == app.grid.scrolling.range.upperBound)
    }

    /// Photos without dates (files named on the command line) keep their order and start at the top.
    @Test func photosWithoutDatesStartAtTheTop() {
        let photos = (0..<40).map { _ in Photo(file: FilePath(TestImages.bundledFolder + "/chelsea.png")) }
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 600), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.settle(stepping: clock)
        #expect(app.grid.scrollOffset == 0)
    }
}
