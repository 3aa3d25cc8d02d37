import Animation
import Foundation
import Geometry
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// `Ctrl+G` on a timeline: a date typed goes to its day (its header at the top of the grid), a month to its first
/// photo, a date past the photos to the newest; words that are no date are said on the card, and the grid stays.
@Suite struct GoToDateTests {
    let clock = ManualClock(fps: 60)
    let english = PhotoQuery.monthNames(locale: Locale(identifier: "en_GB"))

    func day(_ year: Int, _ month: Int, _ day: Int) -> Int64 { PhotoDate.day(year: year, month: month, day: day)! }

    /// A photo on the 1st and the 14th of every month, 2016 to 2019, at noon: 96 days under their headers.
    func library() -> PhotoViewerApp {
        var photos: [Photo] = []
        for year in 2016...2019 {
            for month in 1...12 {
                for date in [1, 14] {
                    let noon = day(year, month, date) * 86_400 + 12 * 3600
                    photos.append(Photo(file: FilePath(TestImages.bundledFolder + "/chelsea.png"),
                                        date: PhotoDate(instant: Double(noon), wallClock: noon, isCaptureTime: true)))
                }
            }
        }
        let app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 600), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock, days: DayTitles(locale: Locale(identifier: "en_GB")))
        app.settle(stepping: clock)
        return app
    }

    func press(_ app: PhotoViewerApp, _ name: String, control: Bool = false) {
        _ = app.handle(.key(name: name, modifiers: control ? [.control] : []))
    }

    func type(_ app: PhotoViewerApp, _ text: String) {
        let names: [Character: String] = [" ": "space", "-": "minus", ".": "period", ",": "comma", "/": "slash"]
        for character in text { press(app, names[character] ?? String(character)) }
    }

    /// The section whose header is at the top of the grid, under the title bar.
    func sectionAtTop(_ app: PhotoViewerApp) -> Int {
        app.grid.layout.section(atContentY: app.grid.scrollOffset + app.grid.layout.topInset + 1)
    }

    func text(_ app: PhotoViewerApp, _ name: String) -> String? { app.root.descendant(named: name)?.text?.string }

    func tap(_ app: PhotoViewerApp, _ name: String) throws {
        let node = try #require(app.root.descendant(named: name), "\(name) shows")
        let at = node.convert(node.bounds, to: nil).center
        _ = app.handle(.pointerDown(at: at, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: at, button: 1, time: clock.now + 0.05))
    }

    /// The card's calendar opens at the month at the top of the view, its days with photos in bold; ‹ turns it back,
    /// a date typed takes it to its month, and a tap on a day glides the grid to that day's header.
    @Test func theCalendarGoesToTheDayTapped() throws {
        let app = library()
        press(app, "g", control: true)
        let top = app.photos[app.grid.indices(withinScreens: 0).lowerBound].date!.day
        let month = { (day: Int64) in DateFormatter.monthAndYear.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)) }
        #expect(text(app, "dateEntry.calendar.title") == month(top))
        let bold = { (n: Int) in app.root.descendant(named: "dateEntry.calendar.day.\(n)")?.text?.weight == .bold }
        #expect(bold(1) && bold(14) && !bold(2) && !bold(15), "the days with photos")
        try tap(app, "dateEntry.calendar.previous")
        let date = PhotoDate.calendarDate(ofDay: top)
        #expect(text(app, "dateEntry.calendar.title") == month(day(date.month == 1 ? date.year - 1 : date.year, (date.month + 10) % 12 + 1, 1)))
        type(app, "2017-06")
        #expect(text(app, "dateEntry.calendar.title") == month(day(2017, 6, 1)), "it follows the date typed")
        try tap(app, "dateEntry.calendar.day.14")
        app.settle(stepping: clock)
        #expect(app.root.descendant(named: "dateEntry") == nil, "the card goes")
        let expected = app.photos.firstIndex { $0.date?.day == day(2017, 6, 14) }!
        #expect(sectionAtTop(app) == app.grid.layout.section(of: expected), "14 June 2017's header at the top")
    }

    /// A tap on a day's header opens the card at that day's month.
    @Test func aTapOnAHeaderOpensTheCardAtItsMonth() throws {
        let app = library()
        let header = try #require(app.root.descendant(named: "header.\(app.grid.layout.sectionCount - 3)"))
        let at = header.convert(header.bounds, to: nil).center
        _ = app.handle(.pointerDown(at: at, button: 1, time: clock.now))
        clock.advance(by: 0.05)
        app.tick()
        _ = app.handle(.pointerUp(at: at, button: 1, time: clock.now))
        app.settle(stepping: clock)
        let first = app.photos[app.grid.layout.photos(inSection: app.grid.layout.sectionCount - 3).lowerBound]
        #expect(text(app, "dateEntry.calendar.title") == DateFormatter.monthAndYear.string(from: Date(timeIntervalSince1970: first.date!.instant)))
        #expect(app.viewer == nil, "no photo opened")
    }

    @Test func aDayTypedBringsItsHeaderToTheTop() {
        let app = library()
        press(app, "g", control: true)
        type(app, "2019-03-14")
        #expect(text(app, "dateEntry.text") == "Go to 2019-03-14|")
        press(app, "Return")
        app.settle(stepping: clock)
        #expect(app.root.descendant(named: "dateEntry") == nil, "the card goes")
        let expected = app.photos.firstIndex { $0.date?.day == day(2019, 3, 14) }!
        #expect(sectionAtTop(app) == app.grid.layout.section(of: expected))
        #expect(app.grid.sectionTitles[sectionAtTop(app)].contains("14 March 2019"), "\(app.grid.sectionTitles[sectionAtTop(app)])")
    }

    @Test func aMonthGoesToItsFirstPhotoAndAFutureDateToTheNewest() {
        let app = library()
        press(app, "g", control: true)
        type(app, "March 2017")
        press(app, "Return")
        app.settle(stepping: clock)
        #expect(sectionAtTop(app) == app.grid.layout.section(of: app.photos.firstIndex { $0.date?.day == day(2017, 3, 1) }!))
        press(app, "g", control: true)
        type(app, "2030")
        press(app, "Return")
        app.settle(stepping: clock)
        #expect(app.grid.scrollOffset == app.grid.scrolling.range.upperBound, "past every photo: the newest, at the end")
    }

    @Test func wordsThatAreNoDateAreSaidAndTheGridStays() {
        let app = library()
        let before = app.grid.scrollOffset
        press(app, "g", control: true)
        type(app, "someday")
        press(app, "Return")
        app.settle(stepping: clock)
        #expect(text(app, "dateEntry.hint")?.contains("“someday” is no date") == true, "\(text(app, "dateEntry.hint") ?? "")")
        #expect(app.grid.scrollOffset == before)
        press(app, "Escape")
        #expect(app.root.descendant(named: "dateEntry") == nil)
        #expect(app.grid.bars.shownTab == .library, "Escape closed the card alone")
    }

    @Test(arguments: [
        ("2019-03-14", false, (2019, 3, 14)), ("2019-03", false, (2019, 3, 1)), ("2019", false, (2019, 1, 1)),
        ("14 March 2019", false, (2019, 3, 14)), ("March 14, 2019", true, (2019, 3, 14)), ("mar 2019", false, (2019, 3, 1)),
        ("14th March 2019", false, (2019, 3, 14)), ("14.3.2019", false, (2019, 3, 14)), ("3/14/2019", true, (2019, 3, 14)),
        ("3/4/2019", false, (2019, 4, 3)), ("3/4/2019", true, (2019, 3, 4)), ("14/3/2019", true, (2019, 3, 14)),
    ])
    func datesAreReadAsPeopleTypeThem(text: String, monthFirst: Bool, date: (Int, Int, Int)) {
        #expect(DateEntry.firstDay(of: text, monthNames: english, monthFirst: monthFirst) == day(date.0, date.1, date.2), "\(text)")
    }

    @Test func wordsThatNameNoDayAreNone() {
        for text in ["", "2019-02-30", "2019-13", "March", "someday", "ma 2019", "1 2 3 2019", "2019 2020"] {
            #expect(DateEntry.firstDay(of: text, monthNames: english, monthFirst: false) == nil, "\(text)")
        }
        let german = PhotoQuery.monthNames(locale: Locale(identifier: "de_DE"))
        #expect(DateEntry.firstDay(of: "14. März 2019", monthNames: german, monthFirst: false) == day(2019, 3, 14))
    }
}
