import Animation
import Geometry
import Input
import Testing
@testable import App

@Suite struct HelpCardTests {
    @Test func questionMarkShowsEveryKeyInTheWindowAndHidesAgain() throws {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 800, height: 600), clock: clock)
        _ = app.handle(.key(name: "question", modifiers: .shift))
        let card = try #require(app.root.descendant(named: "help"))
        let frame = card.convert(card.bounds, to: nil)
        #expect(Rect(x: 0, y: 0, width: 800, height: 600).contains(frame.origin)
                && frame.maxX <= 800 && frame.maxY <= 600, "inside the window: \(frame)")
        let keys = (0..<HelpCard.entries.count).compactMap { app.root.descendant(named: "help.keys.\($0)")?.text?.string }
        for key in ["Shift+S", "d", "f, F11", "q", "Escape, BackSpace"] { #expect(keys.contains(key), "\(key)") }
        app.resize(to: Size(width: 400, height: 300))
        let narrow = card.convert(card.bounds, to: nil)
        #expect(narrow.minX >= 0 && narrow.maxX <= 400, "still inside a narrow window: \(narrow)")
        _ = app.handle(.key(name: "F1", modifiers: []))
        #expect(app.root.descendant(named: "help") == nil)
    }

    /// Over an open photo, Escape hides the card first; the photo stays open until the next Escape.
    @Test func escapeHidesTheCardBeforeThePhoto() throws {
        let clock = ManualClock(fps: 60)
        let app = settledApp(size: Size(width: 800, height: 600), clock: clock)
        _ = app.handle(.key(name: "Return", modifiers: []))
        app.settle(stepping: clock)
        _ = app.handle(.key(name: "question", modifiers: .shift))
        #expect(app.root.descendant(named: "help") != nil)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.root.descendant(named: "help") == nil && app.viewer != nil)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
    }
}
