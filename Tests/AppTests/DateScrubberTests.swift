import Animation
import Dispatch
import Foundation
import Geometry
import Grid
import Input
import Imaging
import Library
import Rendering
import SceneGraph
import SystemPackage
import Testing
import TestSupport
@testable import App

/// The grid's date scrubber, as a user drags it: through a library of four years, in proportion to its photos.
@Suite struct DateScrubberTests {
    /// 800 photos over 2020–2023 (the bundled photos' files, dated every 43.8 hours from 2020-01-01 at noon, so that
    /// each day holds one or two and a day's header takes room without photos).
    static func fourYears() -> [Photo] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: TestImages.bundledFolder).sorted()) ?? []
        let start: Int64 = 1_577_880_000   // 2020-01-01 12:00 UTC
        return (0..<800).map { i in
            let wallClock = start + Int64(i) * 157_680   // 4 × 365 days / 800
            return Photo(file: FilePath(TestImages.bundledFolder + "/" + files[i % files.count]),
                         date: PhotoDate(instant: Double(wallClock), wallClock: wallClock, isCaptureTime: true))
        }
    }

    func makeApp(_ photos: [Photo], clock: ManualClock) -> PhotoViewerApp {
        let app = PhotoViewerApp(photos: photos, size: Size(width: 640, height: 720), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.settle(stepping: clock)
        return app
    }

    /// Pointer events a frame apart, as a mouse gives them.
    func send(_ app: PhotoViewerApp, _ clock: ManualClock, _ events: [InputEvent]) {
        for event in events {
            _ = app.handle(event)
            clock.advance(by: clock.frameInterval)
            app.tick()
        }
    }

    /// A hover near the right edge shows it; dragged to a quarter of its rail, the grid shows the photo a quarter
    /// in (its row under the pinned header) and the bubble names that photo's month; it fades after the finger lifts.
    @Test func draggedToAQuarterItShowsThePhotoAQuarterIn() throws {
        let clock = ManualClock()
        let photos = Self.fourYears()
        let app = makeApp(photos, clock: clock)
        let scrubber = app.grid.scrubber
        #expect(!scrubber.isShown, "hidden until wanted")
        let x = app.size.width - 8
        send(app, clock, [.pointerMove(to: Point(x: x, y: 300), time: 0)])
        clock.advance(by: 0.3)
        app.tick()
        #expect(scrubber.isShown, "a hover near the edge shows it")
        #expect(scrubber.fraction > 0.99, "a timeline opens at its newest photos: the handle at the rail's foot")
        let rail = (top: 56.0 + 4 + 22, bottom: 720.0 - 56 - 4 - 22)   // where the handle's middle travels
        let quarter = rail.top + (rail.bottom - rail.top) * 0.25
        send(app, clock, [.pointerDown(at: Point(x: x, y: 640), button: 1, time: 0.4),
                          .pointerMove(to: Point(x: x, y: 400), time: 0.45),
                          .pointerMove(to: Point(x: x, y: quarter), time: 0.5)])
        let photo = 200   // a quarter of 800, counted in photos (0 … 799)
        let wanted = app.cellFrame(photo)
        #expect(abs(wanted.minY - (56 + 40)) <= 2, "photo \(photo)'s row right under the pinned header: \(wanted)")
        let month = DateFormatter.monthAndYear.string(from: Date(timeIntervalSince1970: photos[photo].date!.instant))
        #expect(scrubber.bubbleWords == month, "the bubble names its month: \(scrubber.bubbleWords ?? "none")")
        #expect(app.grid.sectionTitles.count > 600, "days with headers: pixels are not photos")

        send(app, clock, [.pointerUp(at: Point(x: x, y: quarter), button: 1, time: 0.55), .pointerMove(to: Point(x: 300, y: 300), time: 0.6)])
        #expect(scrubber.bubbleWords == nil && abs(app.cellFrame(photo).minY - wanted.minY) < 0.5, "the grid stays where it was let go")
        #expect(app.isAnimating, "frames go on while it waits to fade")
        app.settle(stepping: clock)
        #expect(!scrubber.isShown && !app.isAnimating, "it fades a moment after, and the frames stop")
    }

    /// A fling shows it while the grid coasts fast, and it fades once the grid slows.
    @Test func aFastScrollShowsIt() throws {
        let clock = ManualClock()
        let app = makeApp(Self.fourYears(), clock: clock)
        send(app, clock, [.pointerDown(at: Point(x: 300, y: 150), button: 1, time: 0)]
             + (1...4).map { .pointerMove(to: Point(x: 300, y: 150 + Double($0) * 120), time: Double($0) * 0.016) }
             + [.pointerUp(at: Point(x: 300, y: 630), button: 1, time: 0.08)])
        #expect(app.grid.scrubber.isShown, "shown while the grid coasts")
        app.settle(stepping: clock)
        #expect(!app.grid.scrubber.isShown, "gone once it stopped")
    }

    /// Scrubbed to photos whose thumbnails are still to come, their cells show each photo's colour as the index keeps
    /// it, then their thumbnails.
    @Test func cellsShowTheirPhotosColoursUntilTheirThumbnailsCome() throws {
        let clock = ManualClock()
        var photos = Self.fourYears()
        for i in photos.indices { photos[i].colour = i % 2 == 0 ? 0x336699 : 0xCC8844 }
        let decodes = DispatchSemaphore(value: 0)
        let app = PhotoViewerApp(photos: photos, size: Size(width: 640, height: 720), emptyMessage: "",
                                 queue: DecodeQueue(threads: 2, decode: { path, size throws(ImageDecodeError) in
                                     decodes.wait()
                                     return try TestDecoders.memoizing(path, size)
                                 }), clock: clock)
        for _ in 0..<5 { app.tick() }
        let shown = app.grid.indices(withinScreens: 0)
        #expect(!shown.isEmpty)
        for i in shown {
            let cell = app.grid.cell(at: i)
            #expect(cell.image == nil && cell.backgroundColor == Color(hex: photos[i].colour!), "cell \(i): its photo's colour")
        }
        for _ in 0..<200 { decodes.signal() }
        app.settle(stepping: clock)
        for i in shown { #expect(app.grid.cell(at: i).image != nil, "cell \(i): its thumbnail") }
    }

    /// Hidden, the right edge is the grid's: a press there taps a photo as anywhere else.
    @Test func hiddenItTakesNothing() throws {
        let clock = ManualClock()
        let app = makeApp(Self.fourYears(), clock: clock)
        let before = app.grid.scrollOffset
        #expect(!app.grid.scrubber.grabs(Point(x: app.size.width - 8, y: 300)))
        send(app, clock, [.pointerDown(at: Point(x: 300, y: 300), button: 1, time: 0), .pointerMove(to: Point(x: 300, y: 200), time: 0.02),
                          .pointerMove(to: Point(x: 300, y: 100), time: 0.04), .pointerUp(at: Point(x: 300, y: 100), button: 1, time: 0.06)])
        #expect(app.grid.scrollOffset != before, "a drag in the middle scrolls the grid")
    }
}

extension DateFormatter {
    /// "March 2019", as the grid's bubble says it in the tests' locale.
    static var monthAndYear: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = .environmentDates
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.setLocalizedDateFormatFromTemplate("MMMMy")
        return formatter
    }
}
