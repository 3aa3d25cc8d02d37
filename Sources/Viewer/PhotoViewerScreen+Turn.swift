import Animation
import Geometry
import Pixels
import SceneGraph

/// Ctrl+R, or two fingers twisting: the open photo turns with a spring, from where it is on screen to
/// its new fit. While the fingers twist, a still of the photo turns with them.
extension PhotoViewerScreen {
    /// The turn's spring, and the spring back of a twist let go short of an eighth.
    static let turnMotion = Motion.spring(response: 0.45, dampingRatio: 0.85)
    static let untwistMotion = Motion.spring(response: 0.3, dampingRatio: 1)

    /// The photo turns `quarters` quarters (clockwise positive) from `angle` (radians, where a twist left it):
    /// its page shows `image` (its picture turned) at fit at once, hidden under a still of the old picture
    /// that turns and grows or shrinks onto it.
    public func turnPhoto(quarters: Int, from angle: Double = 0, to image: PixelImage) {
        guard let page = currentPage, let old = page.photo.image else { return }
        endTurn()
        let from = page.photo.convert(page.photo.bounds, to: root)
        page.turn(to: image)
        let to = page.photo.convert(page.photo.bounds, to: root)
        // After an odd number of quarters the still's width lies along the new fit's height.
        let scale = quarters % 2 == 0 ? to.width / from.width : to.height / from.width
        showTurn(Turn(still: still(of: old, at: from, like: page.photo), from: from, to: to, angles: (angle, Double(quarters) * .pi / 2),
                      scale: scale), with: PhotoViewerScreen.turnMotion)
    }

    /// Two fingers begin to twist the photo: a still of it takes its place.
    public func beginTwist() {
        guard let page = currentPage, let picture = page.photo.image else { return }
        endTurn()
        let frame = page.photo.convert(page.photo.bounds, to: root)
        let turn = Turn(still: still(of: picture, at: frame, like: page.photo), from: frame, to: frame, angles: (0, 0), scale: 1)
        turning = turn
        page.node.alpha = 0
    }

    /// The fingers turned the photo `angle` radians (clockwise positive) from where it was.
    public func twist(angle: Double) {
        turning?.angles = (angle, angle)
        turning?.apply()
    }

    /// Let go short of an eighth: the still springs back straight, and the page shows again.
    public func untwist() {
        guard let turn = turning else { return }
        turn.angles = (turn.angles.from, 0)
        turn.progress = 0
        showTurn(turn, with: PhotoViewerScreen.untwistMotion)
    }

    private func still(of picture: PixelImage, at frame: Rect, like photo: Node) -> Node {
        let still = Node(name: "viewer.turningPhoto", frame: frame)
        still.image = picture
        still.contentMode = photo.contentMode
        still.contentsName = photo.contentsName   // it is the photo on screen while it turns
        root.insertChild(still, above: pages)
        return still
    }

    private func showTurn(_ turn: Turn, with motion: Motion) {
        turning = turn
        currentPage?.node.alpha = 0
        turn.apply()
        animator.animate(turn, \.progress, to: 1, with: motion) { [weak self] _ in
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
        let from: Rect, to: Rect
        /// Radians, at progress 0 and 1.
        var angles: (from: Double, to: Double)
        /// The still's scale at progress 1.
        let scale: Double
        var progress = 0.0 { didSet { apply() } }

        init(still: Node, from: Rect, to: Rect, angles: (from: Double, to: Double), scale: Double) {
            self.still = still
            self.from = from
            self.to = to
            self.angles = angles
            self.scale = scale
        }

        func apply() {
            let angle = angles.from + (angles.to - angles.from) * progress
            still.transform = Transform2D(scale: 1 + (scale - 1) * progress).concatenating(Transform2D(rotationAngle: angle))
            still.center = Point(x: from.midX + (to.midX - from.midX) * progress, y: from.midY + (to.midY - from.midY) * progress)
        }
    }
}
