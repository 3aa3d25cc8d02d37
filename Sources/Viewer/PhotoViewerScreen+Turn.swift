import Animation
import Geometry
import Pixels
import SceneGraph

/// Ctrl+R: the open photo turns a quarter with a spring, from where it is on screen to its new fit.
extension PhotoViewerScreen {
    /// The turn's spring.
    static let turnMotion = Motion.spring(response: 0.45, dampingRatio: 0.85)

    /// The photo turns a quarter `clockwise` (or not): its page shows `image` (its picture turned) at fit
    /// at once, hidden under a still of the old picture that turns and grows or shrinks onto it.
    public func turnPhoto(clockwise: Bool, to image: PixelImage) {
        guard let page = currentPage, let old = page.photo.image else { return }
        endTurn()
        let from = page.photo.convert(page.photo.bounds, to: root)
        page.turn(to: image)
        let to = page.photo.convert(page.photo.bounds, to: root)
        let still = Node(name: "viewer.turningPhoto", frame: from)
        still.image = old
        still.contentMode = page.photo.contentMode
        root.insertChild(still, above: pages)
        page.node.alpha = 0
        let turn = Turn(still: still, from: from, to: to, angle: clockwise ? .pi / 2 : -.pi / 2)
        turning = turn
        animator.animate(turn, \.progress, to: 1, with: PhotoViewerScreen.turnMotion) { [weak self] _ in
            guard let self, turning === turn else { return }
            endTurn()
        }
    }

    /// A turn under way ends where it goes: the still goes, the page shows.
    func endTurn() {
        guard let turn = turning else { return }
        animator.cancelAll(of: turn)
        turn.still.removeFromParent()
        turning = nil
        for page in pageNodes.values { page.node.alpha = 1 }
    }

    /// A turn in progress: the still's angle, size and centre go from the old photo's to the new fit's.
    final class Turn {
        let still: Node
        let from: Rect, to: Rect, angle: Double
        var progress = 0.0 {
            didSet {
                // After a quarter turn the still's width lies along the new fit's height.
                let scale = 1 + (to.height / from.width - 1) * progress
                still.transform = Transform2D(scale: scale).concatenating(Transform2D(rotationAngle: angle * progress))
                still.center = Point(x: from.midX + (to.midX - from.midX) * progress, y: from.midY + (to.midY - from.midY) * progress)
            }
        }

        init(still: Node, from: Rect, to: Rect, angle: Double) {
            self.still = still
            self.from = from
            self.to = to
            self.angle = angle
        }
    }
}
