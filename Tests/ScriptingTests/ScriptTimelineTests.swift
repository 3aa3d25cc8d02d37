import Geometry
import Input
import Testing
@testable import Scripting

@Suite struct ScriptTimelineTests {
    @Test func eventsFallOnFramesWithAMotionEventEveryFrame() {
        let timeline = ScriptTimeline([.down(x: 0, y: 100), .move(x: 0, y: 40, ms: 100), .up, .wait(ms: 50),
                                       .screenshot("a.png")], frameInterval: 1.0 / 60)
        let times = timeline.steps.map { ($0.time * 60).rounded() }
        #expect(times == [0, 1, 2, 3, 4, 5, 6, 6, 9])
        guard case .input(.pointerMove(let last, let time)) = timeline.steps[6].action else {
            Issue.record("the sixth step is the last motion")
            return
        }
        #expect(last == Point(x: 0, y: 40))
        #expect(abs(time - 6.0 / 60) < 1e-12, "stamped with its frame's time, s")
        #expect(timeline.steps[8].action == .screenshot("a.png"))
        #expect(abs(timeline.duration - 9.0 / 60) < 1e-12)
    }

    @Test func pinchMovesTwoFingersApart() {
        let timeline = ScriptTimeline([.pinch(x: 400, y: 300, scale: 2, ms: 100)], frameInterval: 1.0 / 60)
        let touches = timeline.steps.compactMap { step -> (TouchPhase, Int, Point)? in
            if case .input(.touch(let phase, let id, let at, _)) = step.action { return (phase, id, at) }
            return nil
        }
        #expect(touches.count == 2 + 12 + 2)
        #expect(touches.first! == (.begin, 0, Point(x: 300, y: 300)))
        #expect(touches.last! == (.end, 1, Point(x: 600, y: 300)))
    }

    @Test func twistTurnsTwoFingersAboutTheirCentreKeepingTheirDistance() {
        let timeline = ScriptTimeline([.twist(x: 400, y: 300, degrees: 90, ms: 100)], frameInterval: 1.0 / 60)
        let touches = timeline.steps.compactMap { step -> (TouchPhase, Int, Point)? in
            if case .input(.touch(let phase, let id, let at, _)) = step.action { return (phase, id, at) }
            return nil
        }
        #expect(touches.first! == (.begin, 0, Point(x: 300, y: 300)))
        let last = touches.last!
        #expect(last.0 == .end && last.1 == 1 && (last.2 - Point(x: 400, y: 400)).magnitude < 1e-9, "a quarter clockwise: below the centre")
    }

    @Test func tapsHoldBriefly() {
        let timeline = ScriptTimeline([.doubleTap(x: 5, y: 5)], frameInterval: 1.0 / 60)
        let times = timeline.steps.map { Int(($0.time * 1000).rounded()) }
        #expect(times == [0, 50, 150, 200])
    }
}
