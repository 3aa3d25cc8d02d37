import Animation
import Foundation
import Geometry
import Input
import Library
import Testing
import TestSupport
@testable import App

/// The Search tab on the bundled photos (15, in name order; six are Aitzol Berasategi's), driven as a user
/// drives it: `/` or a tap on the tab, letters typed, BackSpace, Escape, a photo opened among the results.
@Suite struct SearchTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    init() {
        app = settledApp(size: Size(width: 400, height: 600), clock: clock)
    }

    @discardableResult
    func key(_ name: String) -> PhotoViewerApp.Request? {
        let request = app.handle(.key(name: name, modifiers: []))
        app.settle(stepping: clock)
        return request
    }

    func type(_ text: String) { for c in text { key(String(c)) } }

    func tap(_ point: Point) {
        _ = app.handle(.pointerDown(at: point, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: point, button: 1, time: clock.now))
        app.settle(stepping: clock)
    }

    var names: [String] { app.photos.map(\.name) }
    var field: String? { app.root.descendant(named: "titleBar.search.text")?.text?.string }

    @Test func typingKeepsWhatMatchesAsItIsTyped() {
        key("slash")
        #expect(app.grid.bars.shownTab == .search && app.photos.count == 15, "an empty field: every photo")
        type("aitzol")
        #expect(names.count == 6 && names.allSatisfy { $0.contains("Aitzol") }, "\(names)")
        #expect(app.grid.photoCount == 6 && field == "aitzol|")
        type("sun")   // "aitzolsun": no word matches
        #expect(key("q") == nil, "q types; it does not quit")
        #expect(app.photos.isEmpty && app.root.descendant(named: "emptyState.title")?.text?.string == "No Results")
        for _ in 0..<4 { key("BackSpace") }
        #expect(names.count == 6 && app.root.descendant(named: "emptyState") == nil)
        key("space")
        type("sun")
        #expect(names == ["sunset_by_Aitzol_Berasategi.jpg", "sunset_orient6_by_Aitzol_Berasategi.jpg"], "two words, both matched")
    }

    @Test func aResultOpensAndPagesAmongTheResultsAndFliesBackIntoItsCell() throws {
        key("slash")
        type("aitzol")
        let cell = app.cellFrame(2)
        tap(cell.center)
        let viewer = try #require(app.viewer)
        #expect(viewer.count == 6 && viewer.photoName == names[2])
        key("Right")
        key("Right")
        key("Right")
        key("Right")
        #expect(app.viewer?.index == 5, "the last result is the last page")
        key("Escape")
        #expect(app.viewer == nil && app.grid.bars.shownTab == .search, "back in the results")
        #expect(app.grid.keyboardSelection == nil || app.grid.keyboardSelection == 5)
    }

    @Test func escapeClearsTheFieldThenLeavesTheTab() {
        key("slash")
        type("coffee")
        #expect(names == ["coffee.png"])
        key("Escape")
        #expect(app.photos.count == 15 && field != "coffee|")
        key("Escape")
        #expect(app.grid.bars.shownTab == .library && app.photos.count == 15)
        #expect(key("q") == .quit, "off the Search tab, keys are keys again")
    }

    @Test func theTabsAreTapped() {
        tap(Point(x: 300, y: 580))
        #expect(app.grid.bars.shownTab == .search)
        type("grace")
        #expect(names == ["grace_hopper.jpg"])
        tap(Point(x: 100, y: 580))
        #expect(app.grid.bars.shownTab == .library && app.photos.count == 15, "the library again, whole")
    }
}
