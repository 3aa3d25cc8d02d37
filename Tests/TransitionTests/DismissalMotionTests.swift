import Animation
import Foundation
import Geometry
import Pixels
import SceneGraph
import Testing
import Transitions

/// The interactive dismissal's motion on a bare Animator and manual clock: what a release does with
/// the finger's speed.
@Suite struct DismissalMotionTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator
    /// A cell near the top left, the photo at fit in a 400×300 view.
    let grid = PhotoScreenStub("grid", photoFrame: Rect(x: 10, y: 10, width: 50, height: 50))
    let viewer = PhotoScreenStub("viewer", photoFrame: Rect(x: 50, y: 0, width: 300, height: 300))
    let layer = Node(name: "layer", frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let dismissal: ZoomDismissalInteractionController

    init() {
        animator = Animator(clock: clock)
        dismissal = ZoomDismissalInteractionController(zoomAnimator: ZoomAnimator(animator: animator, layer: layer))
    }

    /// Pulls down by `translation`, lets go at `velocity`, and returns the photo's centre and shown
    /// width on every frame until it lands, and the outcome.
    func release(translation: Point, velocity: Point) -> (centers: [Point], widths: [Double], outcome: ZoomDismissalInteractionController.Outcome?) {
        var outcome: ZoomDismissalInteractionController.Outcome?
        dismissal.begin(from: viewer, to: grid, image: PixelImage(width: 4, height: 4), name: "p", fade: viewer.root,
                        chrome: nil, viewHeight: 300) { outcome = $0 }
        dismissal.update(translation: translation)
        dismissal.end(translation: translation, velocity: velocity)
        var centers: [Point] = [], widths: [Double] = []
        while let copy = dismissal.transitionImage, centers.count < 120 {
            clock.advanceFrame()
            animator.tick()
            centers.append(copy.center)
            widths.append(copy.frame.width)
        }
        return (centers, widths, outcome)
    }

    /// Throws at up to 5000 px/s in every direction that finishes: the photo never passes its cell
    /// on either axis, nor grows past it; a fast throw lands sooner instead of overshooting.
    @Test(arguments: [250.0, 1000, 2500, 5000])
    func aThrowNeverPassesItsCell(speed: Double) {
        for angle in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 8) {
            let velocity = Point(x: speed * cos(angle), y: speed * sin(angle))
            let dismissal = DismissalMotionTests()
            let run = dismissal.release(translation: Point(x: 0, y: 60), velocity: velocity)
            guard run.outcome == .finished else {
                #expect(velocity.y < 0, "only a throw upward cancels here")
                continue
            }
            let cell = dismissal.grid.photo.frame
            let start = run.centers[0]
            for c in run.centers {
                // Between where it set off and the cell, on each axis (a throw away from the cell may
                // carry it further out first, never past the cell).
                #expect(start.x >= cell.midX ? c.x >= cell.midX - 1e-6 : c.x <= cell.midX + 1e-6, "x \(c.x) at \(velocity)")
                #expect(start.y >= cell.midY ? c.y >= cell.midY - 1e-6 : c.y <= cell.midY + 1e-6, "y \(c.y) at \(velocity)")
            }
            #expect(run.widths.allSatisfy { $0 >= cell.width - 1e-6 }, "never smaller than the cell on the way in")
            #expect(run.centers.count <= 16, "lands within 0.25 s")
        }
    }

    /// A slow release keeps the seeds' 0.25 s; a throw that fast lands sooner.
    @Test func aFastThrowLandsSooner() {
        #expect(release(translation: Point(x: 0, y: 60), velocity: Point(x: 0, y: 100)).centers.count == 15)
        #expect(release(translation: Point(x: 0, y: 60), velocity: Point(x: -5000, y: -10)).outcome == .cancelled)
        let fast = DismissalMotionTests().release(translation: Point(x: 0, y: 60), velocity: Point(x: -5000, y: 2000))
        #expect(fast.outcome == .finished && fast.centers.count < 15)
    }
}
