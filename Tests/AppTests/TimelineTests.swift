import Animation
import Foundation
import Geometry
import Input
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// A library's timeline (photos with dates, oldest first) opens at its newest photos, in days under
/// headers, and the tab of the screen shown takes the grid back there.
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

    /// Three days of 13, 2 and 13 photos, the last today (4 columns at 400x600: rows of 100 px under 40 px headers).
    func threeDays() -> PhotoViewerApp {
        let day: Int64 = 86_400, start: Int64 = 1_700_000_000 / day * day
        let minutes: [Int64] = (0..<13).map { Int64($0) * 60 }
        let wallClocks: [Int64] = minutes.map { start + $0 } + [start + day, start + day + 60] + minutes.map { start + 9 * day + $0 }
        let photos = wallClocks.map {
            Photo(file: FilePath(TestImages.bundledFolder + "/chelsea.png"),
                  date: PhotoDate(instant: Double($0), wallClock: $0, isCaptureTime: true))
        }
        let days = DayTitles(now: Date(timeIntervalSince1970: Double(start + 9 * day + 3600)), zone: TimeZone(secondsFromGMT: 0)!,
                             locale: Locale(identifier: "en_GB"))
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 600), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock, days: days)
        app.settle(stepping: clock)
        return app
    }

    func header(_ k: Int, of app: PhotoViewerApp) throws -> Rect {
        let node = try #require(app.root.descendant(named: "header.\(k)"))
        return node.convert(node.bounds, to: nil)
    }

    @Test func eachDayStartsUnderItsHeader() throws {
        let app = threeDays()
        #expect(app.grid.sectionTitles == ["Tuesday 14 November", "Wednesday 15 November", "Today"])
        for (k, first) in [(0, 0), (1, 13), (2, 15)] {
            app.grid.scrolling.setOffset(app.grid.layout.headerFrame(ofSection: k).minY - 56 - 10)
            let header = try header(k, of: app)
            #expect(header.height == 40)
            #expect(app.cellFrame(first).minY == header.maxY, "day \(k)'s first photo right under its header")
            #expect(app.cellFrame(first).minX == 0, "on a row of its own")
        }
    }

    /// While a day's photos scroll under the title bar its header stays below the bar, covering the
    /// photos under it: a tap there opens no photo (Go to date's card), and a photo partly under it flies from below it.
    @Test func theHeaderOfTheDayUnderTheBarStaysPinned() throws {
        let app = threeDays()
        app.grid.scrolling.setOffset(150)   // day 1's second row passes under the bar
        let pinned = try header(0, of: app)
        #expect(pinned.minY == 56 && pinned.maxY == 96)
        #expect(try header(1, of: app).minY > 96, "the next day's header lies where its day starts")
        let underHeader = Point(x: 150, y: 90)
        #expect(app.grid.index(at: underHeader) == nil)
        _ = app.handle(.pointerDown(at: underHeader, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: underHeader, button: 1, time: clock.now))
        app.settle(stepping: clock)
        #expect(app.viewer == nil && app.root.descendant(named: "dateEntry") != nil, "a tap on a header opens no photo: Go to date")
        _ = app.handle(.key(name: "Escape", modifiers: []))

        let below = Point(x: 150, y: 100)
        let partly = try #require(app.grid.index(at: below))
        #expect(app.cellFrame(partly).minY < 96)
        _ = app.handle(.pointerDown(at: below, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: below, button: 1, time: clock.now))
        let flying = try #require(app.root.descendant(named: "transitionImage"))
        let from = flying.convert(flying.bounds, to: nil)
        #expect(from.minY == 96 && from.maxY == app.cellFrame(partly).maxY, "it flies out from below the header: \(from)")
    }

    /// The next day's header pushes the pinned one up as it meets it.
    @Test func theNextHeaderPushesThePinnedOneUp() throws {
        let app = threeDays()
        let next = app.grid.layout.headerFrame(ofSection: 1).minY
        app.grid.scrolling.setOffset(next - 56 - 15)   // the next header 15 px below the bar's edge
        #expect(try header(0, of: app).maxY == 56 + 15)
        #expect(try header(1, of: app).minY == 56 + 15)
        app.grid.scrolling.setOffset(next - 56 + 1)
        #expect(try header(1, of: app).minY == 56, "the next one is pinned")
        #expect(try header(0, of: app).maxY < 56, "the one before has gone under the bar")
    }

    /// At another column count each day still starts under its header, and the pinned one is under the bar.
    @Test func theDaysKeepTheirHeadersAtEveryDensity() throws {
        let app = threeDays()
        _ = app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: Point(x: 200, y: 300), modifiers: .control))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 3)
        for (k, first) in [(0, 0), (1, 13), (2, 15)] {
            app.grid.scrolling.setOffset(app.grid.layout.headerFrame(ofSection: k).minY - 56 - 10)
            #expect(app.cellFrame(first).minY == (try header(k, of: app)).maxY && app.cellFrame(first).minX == 0)
        }
        app.grid.scrolling.setOffset(200)
        #expect(try header(app.grid.layout.section(atContentY: 256), of: app).minY == 56)
    }
}
