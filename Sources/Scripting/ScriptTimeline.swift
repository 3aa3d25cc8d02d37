import Foundation
import Geometry
import Input

/// A script laid out in time: every event and output at its moment, in seconds from the start,
/// on frame boundaries (a `move` over MS ms has one motion event a frame). The headless player
/// steps a manual clock through it; the window player sends it in real time.
public struct ScriptTimeline: Sendable {
    public enum Action: Equatable, Sendable {
        /// An input event; its time field holds seconds from the script's start.
        case input(InputEvent)
        case resize(width: Int, height: Int)
        /// Waits for the screen to settle, at most this long, s; the player counts the steps after
        /// it from when it ended (their times here leave it out).
        case settle(maxSeconds: Double)
        case screenshot(String)
        case dump(String)
    }

    public struct Step: Equatable, Sendable {
        public let time: Double
        public let action: Action
    }

    /// How long a scripted tap holds the pointer down, and the gap inside a double tap, ms.
    public static let tapHold = 50.0
    public static let doubleTapGap = 100.0
    /// A pinch's fingers start this far either side of its centre, px; its default length, ms.
    public static let pinchSpread = 100.0
    public static let pinchDuration = 300.0

    public private(set) var steps: [Step] = []
    /// When the last command is over, s.
    public private(set) var duration = 0.0

    private let frameInterval: Double
    private var frame = 0
    private var pointer = Point.zero

    public init(_ commands: [ScriptCommand], frameInterval: Double) {
        self.frameInterval = frameInterval
        for command in commands { add(command) }
        duration = Double(frame) * frameInterval
    }

    private var now: Double { Double(frame) * frameInterval }

    private mutating func frames(for ms: Double) -> Int { Int((ms / 1000 / frameInterval).rounded()) }

    private mutating func emit(_ action: Action) { steps.append(Step(time: now, action: action)) }

    private mutating func add(_ command: ScriptCommand) {
        switch command {
        case .wait(let t): frame += frames(for: t)
        case .tap(let x, let y): tap(Point(x: x, y: y))
        case .doubleTap(let x, let y):
            tap(Point(x: x, y: y))
            frame += frames(for: ScriptTimeline.doubleTapGap)
            tap(Point(x: x, y: y))
        case .down(let x, let y):
            pointer = Point(x: x, y: y)
            emit(.input(.pointerDown(at: pointer, button: 1, time: now)))
        case .move(let x, let y, let t):
            let from = pointer, to = Point(x: x, y: y)
            let n = t.map { max(1, frames(for: $0)) } ?? 0
            for i in stride(from: 1, through: n, by: 1) {
                frame += 1
                pointer = from + (to - from) * (Double(i) / Double(n))
                emit(.input(.pointerMove(to: pointer, time: now)))
            }
            if n == 0 {
                pointer = to
                emit(.input(.pointerMove(to: pointer, time: now)))
            }
        case .up: emit(.input(.pointerUp(at: pointer, button: 1, time: now)))
        case .scroll(let dx, let dy, let unit, let control):
            emit(.input(.scroll(dx: dx, dy: dy, unit: unit, at: pointer, modifiers: control ? .control : [])))
        case .key(let name, let modifiers): emit(.input(.key(name: name, modifiers: modifiers)))
        case .pinch(let x, let y, let scale, let t): pinch(Point(x: x, y: y), scale, t ?? ScriptTimeline.pinchDuration)
        case .twist(let x, let y, let degrees, let t): twist(Point(x: x, y: y), degrees, t ?? ScriptTimeline.pinchDuration)
        case .touchpadPinch(let x, let y, let scale, let t):
            pointer = Point(x: x, y: y)
            ramp(scale, over: t ?? ScriptTimeline.pinchDuration) { timeline, phase, s in
                timeline.emit(.input(.touchpadPinch(phase, scale: s, at: timeline.pointer, time: timeline.now)))
            }
        case .resize(let w, let h): emit(.resize(width: w, height: h))
        case .settle(let ms): emit(.settle(maxSeconds: ms / 1000))
        case .screenshot(let path): emit(.screenshot(path))
        case .dump(let path): emit(.dump(path))
        }
    }

    private mutating func tap(_ p: Point) {
        pointer = p
        emit(.input(.pointerDown(at: p, button: 1, time: now)))
        frame += frames(for: ScriptTimeline.tapHold)
        emit(.input(.pointerUp(at: p, button: 1, time: now)))
    }

    private mutating func pinch(_ c: Point, _ scale: Double, _ t: Double) {
        let d = ScriptTimeline.pinchSpread
        ramp(scale, over: t) { timeline, phase, s in
            timeline.emit(.input(.touch(phase, id: 0, at: Point(x: c.x - d * s, y: c.y), time: timeline.now)))
            timeline.emit(.input(.touch(phase, id: 1, at: Point(x: c.x + d * s, y: c.y), time: timeline.now)))
        }
    }

    /// Two fingers `pinchSpread` either side of `c`, their line turned to `degrees` (clockwise) over `t` ms.
    private mutating func twist(_ c: Point, _ degrees: Double, _ t: Double) {
        let d = ScriptTimeline.pinchSpread
        // The ramp's "scale" runs 1 → 1 + degrees: the angle is what it adds.
        ramp(1 + degrees, over: t) { timeline, phase, s in
            let angle = (s - 1) * .pi / 180, offset = Point(x: d * cos(angle), y: d * sin(angle))
            timeline.emit(.input(.touch(phase, id: 0, at: c - offset, time: timeline.now)))
            timeline.emit(.input(.touch(phase, id: 1, at: c + offset, time: timeline.now)))
        }
    }

    /// A pinch's phases, a frame apart: begin at scale 1, an update a frame up to `scale` over `t` ms, end.
    private mutating func ramp(_ scale: Double, over t: Double, _ emit: (inout ScriptTimeline, TouchPhase, Double) -> Void) {
        emit(&self, .begin, 1)
        let n = max(1, frames(for: t))
        for i in 1...n {
            frame += 1
            emit(&self, .update, 1 + (scale - 1) * Double(i) / Double(n))
        }
        emit(&self, .end, scale)
    }
}
