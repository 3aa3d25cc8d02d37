import Animation
import Geometry
import SceneGraph
import Testing
import TestSupport
import Transitions
@testable import App
@testable import Viewer

/// Reduce motion (issue 18 point 4): the zoom-in, the fly-back and the arrow keys' page turns
/// cross-fade in place in 0.15 s instead of flying; gestures still follow the fingers. On every
/// frame the photo shows once in all: its copy and its cell share it, their alphas summing to one.
@Suite struct ReduceMotionTests {
    static let size = Size(width: 400, height: 600)
    /// 0.15 s at 60 Hz, and the frame it lands on.
    static let crossFadeFrames = 10

    /// Runs frames while the photo is in the air, checking on each that it shows once in all and
    /// that it does not travel; returns how many frames it was in the air.
    func runCrossFade(_ v: OpenViewer, at place: Rect, _ what: String) -> Int {
        var frames = 0
        while v.app.flight != nil, frames < 60 {
            #expect(v.app.flight?.mover == .crossFade, "\(what), frame \(frames)")
            #expect(abs(v.app.opacityShown(v.name) - 1) < 1e-9, "\(what), frame \(frames): shown \(v.app.opacityShown(v.name)) in all")
            if let copy = v.copy {
                #expect((copy.convert(copy.bounds, to: nil) - place).magnitude < 0.5, "\(what), frame \(frames): it stays in place")
            }
            v.frames(1)
            frames += 1
        }
        #expect(v.app.timesShown(v.name) == 1, "\(what): after the cross-fade")
        return frames
    }

    @Test func theZoomInCrossFadesOnTheFitFrame() throws {
        let v = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        v.settle()
        #expect(v.app.viewer == nil)
        let cell = v.app.cellFrame(1)
        v.tap(cell.center)
        // From the lift, the copy sits where the viewer shows the photo.
        let fit = try #require(v.app.viewer).fitFrame
        #expect(fit.width > cell.width * 2, "the fit frame is the viewer's, not the cell")
        #expect(v.app.flight == Flight(.zoomingIn, by: .crossFade))
        let frames = runCrossFade(v, at: fit, "zoom-in")
        #expect(frames <= ReduceMotionTests.crossFadeFrames, "\(frames) frames")
        #expect(v.viewer.root.alpha == 1 && v.app.grid.cell(at: 1).alpha == 1)
    }

    @Test func escapeCrossFadesIntoTheGrid() throws {
        let v = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        let fit = v.photoFrame
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        #expect(v.app.flight == Flight(.flyingBack, by: .crossFade))
        let frames = runCrossFade(v, at: fit, "fly-back")
        #expect(frames <= ReduceMotionTests.crossFadeFrames, "\(frames) frames")
        v.settle()
        #expect(v.app.viewer == nil)
        let cell = v.app.grid.cell(at: 1)
        #expect(!cell.isHidden && cell.alpha == 1, "the cell is whole again")
    }

    @Test func arrowKeysCrossFadeThePageInPlace() throws {
        let v = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        let pitch = v.viewer.pitch
        _ = v.app.handle(.key(name: "Right", modifiers: []))
        v.frames(1)
        #expect(v.viewer.index == 2 && v.viewer.pagingOffset == 2 * pitch, "no slide: the pager is on the next page at once")
        let leaving = try #require(v.viewer.root.descendant(named: "viewer.leavingPage"))
        var alphas: [Double] = []
        var frames = 1
        while v.viewer.root.descendant(named: "viewer.leavingPage") != nil, frames < 60 {
            alphas.append(leaving.alpha)
            v.frames(1)
            frames += 1
        }
        #expect(frames <= ReduceMotionTests.crossFadeFrames, "\(frames) frames")
        #expect(alphas.first! < 1 && alphas.first! > 0 && zip(alphas, alphas.dropFirst()).allSatisfy { $0 > $1 }, "\(alphas)")
        v.settle()
        #expect(v.viewer.pagingOffset == 2 * pitch && v.viewer.index == 2)
    }

    @Test func gesturesStillFollowTheFingers() {
        let v = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        let c = v.photoFrame.center
        v.drag(from: c, to: c + Point(x: 0, y: 120), steps: 12, hold: true)
        #expect(v.app.flight == Flight(.held, by: .finger))
        let copy = v.copy!
        #expect(copy.convert(copy.bounds, to: nil).center.y > c.y + 60, "the photo follows the finger down")
        v.lift(c + Point(x: 0, y: 120))
        #expect(v.app.flight == Flight(.flyingHome, by: .curve), "a release carries the finger's motion on")
        v.settle()
        #expect(v.app.viewer == nil)

        // A swipe in the viewer slides the pages under the finger.
        let w = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        let p = w.photoFrame.center
        w.drag(from: p, to: p - Point(x: 150, y: 0), steps: 10, hold: true)
        #expect(abs(w.viewer.pagingOffset - (w.viewer.pitch + 150)) < 1)
    }

    /// Keys and a press while the photo cross-fades in: the flight turns or is taken, and the photo
    /// shows once in all on every frame until it rests.
    @Test(arguments: ["Escape", "Return", "press"])
    func inputDuringTheCrossFade(_ input: String) throws {
        let v = OpenViewer(index: 1, size: ReduceMotionTests.size, reduceMotion: true)
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        v.settle()
        let cell = v.app.cellFrame(1).center
        v.press(cell)
        v.lift(cell)
        v.frames(3)
        #expect(v.app.flight == Flight(.zoomingIn, by: .crossFade))
        let fit = try #require(v.app.viewer).fitFrame
        switch input {
        case "press":
            v.press(fit.center)
            #expect(v.app.flight == Flight(.held, by: .finger), "a press takes the fading photo")
            #expect(v.copy?.alpha == 1 && v.app.timesShown(v.name) == 1, "whole, in one place")
            v.lift(fit.center)
        default:
            _ = v.app.handle(.key(name: input, modifiers: []))
        }
        var frames = 0
        while v.app.isAnimating, frames < 120 {
            #expect(abs(v.app.opacityShown(v.name) - 1) < 1e-9, "\(input), frame \(frames)")
            v.frames(1)
            frames += 1
        }
        v.settle()
        #expect((v.app.viewer == nil) == (input == "Escape"), "\(input): Escape closes, the others open")
        #expect(v.app.timesShown(v.name) == 1)
    }
}
