import Animation
import Geometry
import Pixels
import SceneGraph
import Testing
import Transitions

/// A screen with one photo node at a fixed place: a thumbnail, or the photo at fit.
final class PhotoScreenStub: PullablePhotoScreen {
    let root: Node
    let photo: Node
    let image: PixelImage? = PixelImage(width: 4, height: 4)
    var photoName: String { photo.name }
    /// What the controller told the screen of pulls: "began", "cancelled".
    private(set) var pulls: [String] = []
    init(_ name: String, photoFrame: Rect) {
        root = Node(name: name, frame: Rect(x: 0, y: 0, width: 400, height: 300))
        photo = Node(name: "\(name).photo", frame: photoFrame)
        root.addChild(photo)
    }
    func resize(to size: Size) {}
    func pullBegan() { pulls.append("began") }
    func pullCancelled() { pulls.append("cancelled") }
    func transitionWillStartWith(zoomAnimator: ZoomAnimator) {}
    func transitionDidEndWith(zoomAnimator: ZoomAnimator) {}
    func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node? { photo }
    func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect? { photo.frame }
}

/// The seeds' transition controller on its own: a push, a pop and an interactive pop through a
/// navigation stack, on a manual clock.
@Suite struct ZoomTransitionControllerTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator
    let grid = PhotoScreenStub("grid", photoFrame: Rect(x: 10, y: 10, width: 50, height: 50))
    let viewer = PhotoScreenStub("viewer", photoFrame: Rect(x: 50, y: 0, width: 300, height: 300))
    let tabBar = Node(name: "tabBar")
    let layer = Node(name: "layer", frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let controller: ZoomTransitionController
    let image = PixelImage(width: 4, height: 4)

    init() {
        animator = Animator(clock: clock)
        controller = ZoomTransitionController(stack: NavigationStack(root: grid, container: Node(name: "screens")),
                                              animator: animator, layer: layer, chrome: tabBar, viewHeight: 300)
    }

    func runFrames() -> Int {
        var frames = 0
        while animator.isAnimating && frames < 120 {
            clock.advanceFrame()
            animator.tick()
            frames += 1
        }
        return frames
    }

    @Test func pushZoomsInThenCoversTheGrid() {
        var covered = 0
        controller.push(viewer, from: grid, image: image, name: "p", animated: true, covered: { covered += 1 }, left: {})
        #expect(controller.flight == Flight(.zoomingIn, by: .spring) && controller.isTransitioning)
        #expect(grid.photo.isHidden && viewer.photo.isHidden, "only the flying copy shows")
        #expect(runFrames() == 30)
        #expect(covered == 1 && !controller.isTransitioning && controller.stack.top === viewer)
        #expect(grid.root.isHidden && !grid.photo.isHidden && !viewer.photo.isHidden)
        #expect(viewer.root.alpha == 1 && tabBar.alpha == 0)
    }

    @Test func anUnanimatedPushIsThereAtOnce() {
        var covered = false
        controller.push(viewer, from: grid, image: image, name: "p", animated: false, covered: { covered = true }, left: {})
        #expect(covered && controller.stack.top === viewer && !animator.isAnimating && tabBar.alpha == 0)
    }

    @Test func popFliesBackAndATakenFlightBecomesAPullThatCanSpringBack() throws {
        var left = 0
        controller.push(viewer, from: grid, image: image, name: "p", animated: false, covered: {}, left: { left += 1 })
        controller.pop()
        #expect(controller.flight == Flight(.flyingBack, by: .curve))
        for _ in 0..<5 { clock.advanceFrame(); animator.tick() }
        let flying = try #require(controller.animator.transitionImage)
        #expect(!controller.take(at: Point(x: 0, y: 299)), "a press beside the photo takes nothing")
        #expect(controller.flight == Flight(.flyingBack, by: .curve))
        #expect(controller.take(at: flying.frame.center), "the flight was not taken")
        #expect(controller.state == .held && controller.flight == Flight(.held, by: .finger))
        #expect(controller.flyingPhoto === flying && viewer.pulls == ["began"], "the same copy, now under the finger")
        controller.letGo(translation: Point(x: 0, y: -20), velocity: Point(x: 0, y: -100))
        #expect(controller.state == .released(toward: .viewer) && controller.flight == Flight(.springingBack, by: .spring))
        _ = runFrames()
        #expect(viewer.pulls == ["began", "cancelled"] && left == 0, "moving up: it springs back")
        #expect(controller.flight == nil && controller.state == .idle)
        #expect(controller.stack.top === viewer && !viewer.photo.isHidden && !grid.photo.isHidden)
        #expect(layer.children.isEmpty, "the copy is gone")
    }

    @Test func aKeyTurnsAZoomInAroundInOneChangeOfStateAndThePhotoLandsInItsCell() throws {
        var left = 0
        controller.push(viewer, from: grid, image: image, name: "p", animated: true, covered: {}, left: { left += 1 })
        for _ in 0..<8 { clock.advanceFrame(); animator.tick() }
        let flying = try #require(controller.animator.transitionImage)
        let before = flying.frame
        #expect(controller.state == .flying(toward: .viewer))
        #expect(controller.perform(.close) == .turnsAround)
        #expect(controller.state == .released(toward: .cell) && controller.flight == Flight(.flyingHome, by: .curve))
        let after = flying.frame
        #expect(controller.flyingPhoto === flying, "the same copy flies on")
        #expect([after.minX - before.minX, after.minY - before.minY, after.width - before.width, after.height - before.height]
            .allSatisfy { abs($0) < 1e-9 }, "from where it was: \(before) then \(after)")
        #expect(controller.perform(.close) == .goesOn)
        _ = runFrames()
        #expect(left == 1 && controller.state == .idle && controller.stack.top === grid, "landed in its cell")
        controller.pop()
        #expect(controller.flight == nil, "nothing is left to pop")
    }
}
