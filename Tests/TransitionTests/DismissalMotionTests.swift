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

    /// Begins a pull at fit (nothing moved yet).
    func begin() -> (outcome: () -> ZoomDismissalInteractionController.Outcome?, fit: Rect) {
        var outcome: ZoomDismissalInteractionController.Outcome?
        dismissal.begin(from: viewer, to: grid, image: PixelImage(width: 4, height: 4), name: "p", fade: viewer.root,
                        chrome: nil, viewHeight: 300) { outcome = $0 }
        return ({ outcome }, viewer.photo.frame)
    }

    func runUntilLanded() {
        var frames = 0
        while dismissal.transitionImage != nil, frames < 120 {
            clock.advanceFrame()
            animator.tick()
            frames += 1
        }
    }

    /// Pinch maths: the photo scales with the fingers (clamped to 0.25…1), the photo point under the
    /// fingers' first centre stays under their centre, and the background follows the pull's formulas
    /// for the drag that shows the same scale.
    @Test func aPinchScalesAboutTheFingersAndFadesByThePullsFormulas() throws {
        let (_, fit) = begin()
        dismissal.beginPinch()
        let start = Point(x: 150, y: 120), center = Point(x: 170, y: 160)
        dismissal.updatePinch(scale: 0.6, center: center, start: start)
        let copy = try #require(dismissal.transitionImage)
        #expect(abs(copy.transform.a - 0.6) < 1e-12)
        // The point that was under `start` at fit is now under `center`.
        let u = (start.x - fit.minX) / fit.width, v = (start.y - fit.minY) / fit.height
        let shown = copy.frame
        #expect(abs(shown.minX + u * shown.width - center.x) < 1e-9 && abs(shown.minY + v * shown.height - center.y) < 1e-9)
        let f = try #require(dismissal.formulas)
        #expect(abs(viewer.root.alpha - f.backgroundAlpha(Point(x: 0, y: 0.4 * 300))) < 1e-12)
        dismissal.updatePinch(scale: 0.05, center: center, start: start)
        #expect(copy.transform.a == ZoomDismissalInteractionController.smallestPinchScale)
        dismissal.updatePinch(scale: 3, center: center, start: start)
        #expect(copy.transform.a == 1, "never past fit")
    }

    /// Let go: still closing, or small, the pinch finishes into the cell; opening again, it springs back.
    @Test(arguments: [(0.7, -0.5, true), (0.8, 0, true), (0.9, 0, false), (0.6, 0.5, false)])
    func aPinchLetGoFinishesOrCancels(scale: Double, speed: Double, finishes: Bool) {
        let (outcome, _) = begin()
        dismissal.beginPinch()
        let c = Point(x: 200, y: 150)
        dismissal.updatePinch(scale: scale, center: c, start: c)
        dismissal.endPinch(scale: scale, center: c, start: c, scaleVelocity: speed, centerVelocity: .zero)
        runUntilLanded()
        #expect(outcome() == (finishes ? .finished : .cancelled), "scale \(scale), speed \(speed)")
    }

    /// Grab maths: a photo taken while it springs back stays exactly where it is (no jump), then
    /// follows the finger from there.
    @Test func aGrabbedPhotoStaysWhereItIsAndFollowsTheFinger() throws {
        let (_, _) = begin()
        dismissal.update(translation: Point(x: 30, y: 120))
        dismissal.end(translation: Point(x: 30, y: 120), velocity: Point(x: 0, y: -400))   // up: springs back
        for _ in 0..<6 { clock.advanceFrame(); animator.tick() }
        let copy = try #require(dismissal.transitionImage)
        let before = copy.frame
        #expect(dismissal.isReleasedPhoto(at: before.center))
        dismissal.grabReleasedPhoto()
        #expect((copy.frame.center - before.center).magnitude < 1e-9 && abs(copy.frame.width - before.width) < 1e-9,
                "taken where it was")
        #expect(!animator.isAnimating(copy, \.center), "it stopped")
        dismissal.update(translation: Point(x: 10, y: 20))
        // Across, exactly with the finger; down, with it and the pull's shrinking (the formulas' centre).
        #expect(abs(copy.center.x - before.center.x - 10) < 1e-9 && copy.center.y > before.center.y + 10, "then the finger carries it")
    }
}
