import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
import Transitions
@testable import App

/// Every input counts in every phase of a flight: the table of what each key or tap does while the
/// photo is in the air, and where it ends. On every frame the photo shows exactly once.
///
/// | in the air            | Escape | Return | tap on it | Right            | +                 |
/// |-----------------------|--------|--------|-----------|------------------|-------------------|
/// | zooming in            | grid   | viewer | viewer    | next page, landed| zoomed, landed    |
/// | flying back           | grid   | viewer | viewer    | grid (ignored)   | grid (ignored)    |
/// | springing back        | grid   | viewer | viewer    | next page, landed| zoomed, landed    |
/// | flying home (a pull)  | grid   | viewer | viewer    | grid (ignored)   | grid (ignored)    |
@Suite struct InputInEveryPhaseTests {
    /// The stages of a flight with nothing holding the photo.
    typealias Phase = Flight.Stage
    static let phases: [Phase] = Phase.allCases.filter { $0 != .held }
    enum Input: String, CaseIterable { case escape, enter, tapOnIt, right, plus }
    enum End: Equatable { case grid, viewer(page: Int, zoomed: Bool) }

    static let index = 1

    static func expected(_ phase: Phase, _ input: Input) -> End {
        switch (phase, input) {
        case (_, .escape): .grid
        case (_, .enter), (_, .tapOnIt): .viewer(page: index, zoomed: false)
        case (.flyingBack, _), (.flyingHome, _): .grid
        case (_, .right): .viewer(page: index + 1, zoomed: false)
        case (_, .plus): .viewer(page: index, zoomed: true)
        }
    }

    /// The app with photo `index`'s flight in the air in `phase`, a few frames in.
    static func inTheAir(_ phase: Phase) -> OpenViewer {
        let v = OpenViewer(index: index, size: Size(width: 400, height: 600))
        let c = v.photoFrame.center
        switch phase {
        case .zoomingIn:
            _ = v.app.handle(.key(name: "Escape", modifiers: []))
            v.settle()
            let cell = v.app.cellFrame(index).center
            v.press(cell)
            v.lift(cell)
        case .flyingBack:
            _ = v.app.handle(.key(name: "Escape", modifiers: []))
        case .springingBack:
            v.drag(from: c, to: c + Point(x: 0, y: 100), steps: 10, hold: true)
            for y in [90.0, 80, 70, 60] {
                v.frames(1)
                v.move(c + Point(x: 0, y: y))
            }
            v.lift(c + Point(x: 0, y: 60))
        case .flyingHome:
            v.drag(from: c, to: c + Point(x: 0, y: 150), steps: 30)
        case .held:
            preconditionFailure("a finger holds it: not a flight on its own")
        }
        v.frames(4)
        return v
    }

    @Test(arguments: InputInEveryPhaseTests.phases, Input.allCases)
    func everyInputInEveryFlightEndsAsTheTableSays(_ phase: Phase, _ input: Input) throws {
        let v = InputInEveryPhaseTests.inTheAir(phase)
        let copy = try #require(v.copy, "\(phase): in the air")
        #expect(v.app.flight?.stage == phase, "the app names the flight as the test set it up")
        switch input {
        case .escape: _ = v.app.handle(.key(name: "Escape", modifiers: []))
        case .enter: _ = v.app.handle(.key(name: "Return", modifiers: []))
        case .right: _ = v.app.handle(.key(name: "Right", modifiers: []))
        case .plus: _ = v.app.handle(.key(name: "plus", modifiers: []))
        case .tapOnIt:
            let on = copy.convert(copy.bounds, to: nil).center
            v.press(on)
            v.frames(2)
            v.lift(on)
        }
        var frames = 0
        while v.app.isAnimating, frames < 600 {
            v.frames(1)
            frames += 1
            #expect(v.app.timesShown(v.name) == 1, "\(phase), \(input): frame \(frames) shows the photo \(v.app.timesShown(v.name)) times")
        }
        v.settle()
        let end: End = v.app.viewer.map { .viewer(page: $0.index, zoomed: $0.isZoomed) } ?? .grid
        #expect(end == InputInEveryPhaseTests.expected(phase, input), "\(phase), \(input)")
    }
}
