import Animation
import Foundation
import Geometry
import Input
import Library
import Pixels
import Rendering
import SceneGraph
import Testing
import TestSupport
@testable import App
@testable import Grid

/// The Library tab's Years, Months, Days and All Photos, as a user goes through four years of photos: what the cards
/// say, a tap that zooms into a month with the photo under the finger, and the way back to the same frame.
@Suite struct LibraryViewsTests {
    let clock = ManualClock(fps: 60)
    let photos = DateScrubberTests.fourYears()
    let app: PhotoViewerApp

    init() {
        app = PhotoViewerApp(photos: photos, size: Size(width: 1280, height: 800), emptyMessage: "",
                             queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.settle(stepping: clock)
    }

    func key(_ name: String, control: Bool = false) {
        _ = app.handle(.key(name: name, modifiers: control ? [.control] : []))
        app.settle(stepping: clock)
    }

    func tap(_ point: Point) {
        _ = app.handle(.pointerDown(at: point, button: 1, time: clock.now))
        clock.advance(by: 0.05)
        app.tick()
        _ = app.handle(.pointerUp(at: point, button: 1, time: clock.now))
        app.settle(stepping: clock)
    }

    /// The captions in the scene, as `dump` gives them: each card's title and count, by card.
    func captions() throws -> [Int: (title: String, count: String)] {
        struct Entry: Decodable { let name: String; let text: String?; let children: [Entry] }
        var found: [Int: (String, String)] = [:]
        func walk(_ e: Entry) {
            let parts = e.name.split(separator: ".")
            if parts.count == 4, parts[0] == "card", parts[2] == "caption", let k = Int(parts[1]) {
                var entry = found[k] ?? ("", "")
                if parts[3] == "title" { entry.0 = e.text ?? "" } else { entry.1 = e.text ?? "" }
                found[k] = entry
            }
            e.children.forEach(walk)
        }
        walk(try JSONDecoder().decode(Entry.self, from: SceneDump.json(app.root)))
        return found.mapValues { (title: $0.0, count: $0.1) }
    }

    func render() throws -> PixelImage {
        try SceneRenderer().render(app.root, width: Int(app.size.width), height: Int(app.size.height))
    }

    static func differingPixels(_ a: PixelImage, _ b: PixelImage) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.pixelCount }
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }


    static func month(of photo: Photo, _ template: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = .environmentDates
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter.string(from: Date(timeIntervalSince1970: Double(photo.date!.wallClock)))
    }

    /// Years: a card a year, its year and its count; Months under the years' headers, each card's photos of its month,
    /// its count that month's; Days a card a day with at most six photos; the title bar counts the cards.
    @Test func theCardsSayTheirYearsMonthsAndDays() throws {
        key("1", control: true)
        #expect(app.grid.shownView == .years)
        let years = try captions()
        #expect(years.keys.sorted() == [0, 1, 2, 3])
        #expect(years.sorted { $0.key < $1.key }.map(\.value.title) == ["2020", "2021", "2022", "2023"])
        for (k, caption) in years {
            let count = photos.count { Self.month(of: $0, "y") == "\(2020 + k)" }
            #expect(caption.count == "\(count) photos", "\(2020 + k): \(caption.count)")
        }
        #expect(app.grid.bars.title == "Years")

        key("2", control: true)
        #expect(app.grid.shownView == .months && app.grid.sectionTitles == ["2020", "2021", "2022", "2023"])
        let months = try captions()
        #expect(months.count >= 6, "a screen of months: \(months.count)")
        let cards = try #require(app.grid.layout.tiles)
        for (k, caption) in months {
            let shown = cards.tiles(ofCard: k).map { app.photos[$0] }
            let names = Set(shown.map { Self.month(of: $0, "MMMM") }), monthYear = Set(shown.map { Self.month(of: $0, "MMMMy") })
            #expect(names == [caption.title] && monthYear.count == 1, "card \(k) “\(caption.title)” shows \(names)")
            let count = photos.count { Self.month(of: $0, "MMMMy") == monthYear.first }
            #expect(caption.count == "\(count) photos" && (1...3).contains(shown.count))
        }

        key("3", control: true)
        let days = Set(photos.map { $0.date!.day }).count
        #expect(app.grid.shownView == .days && app.grid.layout.tiles?.cardFrames.count == days)
        #expect(app.grid.sectionTitles.count == 48, "a header a month: \(app.grid.sectionTitles.prefix(3))")
        let dayCards = try #require(app.grid.layout.tiles)
        #expect(dayCards.cardFrames.indices.allSatisfy { (1...6).contains(dayCards.tiles(ofCard: $0).count) })
        key("4", control: true)
        #expect(app.grid.shownView == nil && app.photos.count == 800)
    }

    /// A tap on a month's photo zooms into Days, the photo landing where the finger holds it (its height on screen
    /// kept to 2 px), a back button naming Months.
    @Test func aTapOnAMonthLandsWithThePhotoUnderTheFinger() throws {
        key("2", control: true)
        let cards = try #require(app.grid.layout.tiles)
        let visible = app.grid.indices(withinScreens: 0)
        // A month's large tile in the middle of the screen.
        let tile = try #require(visible.first { i in
            let f = app.cellFrame(i)
            return cards.tiles(ofCard: cards.card(of: i)).lowerBound == i && f.minY > 120 && f.maxY < 700
        })
        let from = app.cellFrame(tile)
        let finger = Point(x: from.minX + from.width * 0.3, y: from.minY + from.height * 0.6)
        let tapped = app.photos[tile]
        _ = app.handle(.pointerDown(at: finger, button: 1, time: clock.now))
        clock.advance(by: 0.05)
        app.tick()
        _ = app.handle(.pointerUp(at: finger, button: 1, time: clock.now))
        clock.advanceFrame()
        app.tick()
        #expect(app.isAnimating && app.grid.shownView == .days, "it zooms")
        app.settle(stepping: clock)
        let cell = try #require(app.photos.firstIndex(of: tapped), "the photo is on a day's card")
        let landed = app.cellFrame(cell)
        #expect(abs(landed.minY + landed.height * 0.6 - finger.y) <= 2, "the point held of it is at the finger: \(landed), \(finger)")
        #expect(app.grid.bars.showsBackButton && app.grid.bars.title == "Days")
        #expect(app.grid.picture(at: cell) != nil, "it shows its picture")
    }

    /// Back (Escape) from a month's days ends on the frame the tap left, and again from Months to Years.
    @Test func backEndsInTheFrameItLeft() throws {
        key("1", control: true)
        let years = try render()
        tap(app.cellFrame(2).center)
        #expect(app.grid.shownView == .months)
        let months = try render()
        let visible = app.grid.indices(withinScreens: 0)
        tap(app.cellFrame(visible.lowerBound + visible.count / 2).center)
        #expect(app.grid.shownView == .days)
        key("Escape")
        #expect(app.grid.shownView == .months)
        #expect(try Self.differingPixels(render(), months) == 0, "back on the months as they were")
        key("Escape")
        #expect(app.grid.shownView == .years && !app.grid.bars.showsBackButton)
        #expect(try Self.differingPixels(render(), years) == 0, "and on the years")
    }

    /// The picker at the tab's foot chooses the view; a pinch apart on a card opens it, together goes back.
    @Test func thePickerAndPinchesChooseTheView() throws {
        let picker = app.grid.bars.picker.node.frame
        tap(Point(x: picker.minX + picker.width * 0.6, y: picker.midY))
        #expect(app.grid.shownView == .days)
        tap(Point(x: picker.minX + picker.width * 0.1, y: picker.midY))
        #expect(app.grid.shownView == .years && app.grid.bars.title == "Years")
        pinch(about: app.cellFrame(1).center, to: 1.5)
        #expect(app.grid.shownView == .months, "apart: into the year")
        pinch(about: Point(x: 640, y: 400), to: 0.6)
        #expect(app.grid.shownView == .years, "together: back out")
        _ = app.handle(.key(name: "Right", modifiers: []))
        key("Return")
        #expect(app.grid.shownView == .months, "Return opens the chosen card")
    }

    /// Another tab shows photos, with no back button; the Library tab again shows the view it left, at its newest.
    @Test func theViewsAreTheLibraryTabs() throws {
        key("1", control: true)
        tap(app.cellFrame(3).center)
        #expect(app.grid.shownView == .months && app.grid.bars.showsBackButton)
        key("slash")
        #expect(app.grid.bars.shownTab == .search && app.grid.shownView == nil && !app.grid.bars.showsBackButton)
        #expect(!app.grid.bars.showsViewPicker && app.photos.count == 800, "the search looks through every photo")
        key("Escape")
        #expect(app.grid.bars.shownTab == .library && app.grid.shownView == .months && !app.grid.bars.showsBackButton)
        #expect(app.grid.bars.showsViewPicker && app.grid.scrollOffset == app.grid.scrolling.range.upperBound)
    }

    func pinch(about center: Point, to scale: Double) {
        func fingers(_ phase: TouchPhase, _ s: Double) {
            _ = app.handle(.touch(phase, id: 0, at: Point(x: center.x - 60 * s, y: center.y), time: clock.now))
            _ = app.handle(.touch(phase, id: 1, at: Point(x: center.x + 60 * s, y: center.y), time: clock.now))
        }
        fingers(.begin, 1)
        for step in 1...12 {
            clock.advanceFrame()
            app.tick()
            fingers(.update, 1 + (scale - 1) * Double(step) / 12)
        }
        fingers(.end, scale)
        app.settle(stepping: clock)
    }
}
