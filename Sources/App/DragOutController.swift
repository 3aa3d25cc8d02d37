import Animation
import Geometry
import Library
import Logging
import Pixels
import SceneGraph

/// A long press lifts a grid cell's photo, or the open photo, for a drag into another program
/// (`PhotoDragOut`); the window's runner offers it to the window system while `photo` says one is lifted.
final class DragOutController {
    /// The photo lifted and dragged, while one is.
    private var dragOut: PhotoDragOut?
    private let animator: Animator
    private let logger: Logger

    init(animator: Animator, logger: Logger) {
        (self.animator, self.logger) = (animator, logger)
    }

    /// The photo carried, while one is: past the window's edge the window system carries it on.
    var photo: Photo? { dragOut?.photo }

    /// Lifts `photo` (`picture` its copy) from `origin` toward the finger at `point`, over `root`.
    func lift(_ photo: Photo, picture: PixelImage?, from origin: Rect, at point: Point, over root: Node) {
        guard dragOut == nil else { return }
        let drag = PhotoDragOut(photo: photo, picture: picture, from: origin)
        root.addChild(drag.copy)
        dragOut = drag
        animator.animate(drag.copy, \.frame, to: drag.frame(at: point), with: PhotoDragOut.lift)
        animator.animate(drag.copy, \.alpha, to: PhotoDragOut.alpha, with: PhotoDragOut.lift)
        logger.debug("lifted \(drag.photo.name) to drag it out")
    }

    /// The finger carrying the lifted photo moved to `point` (past the window's edge too).
    func moved(to point: Point) {
        guard let drag = dragOut else { return }
        let target = drag.frame(at: point)
        // Still lifting: the spring goes on to where the finger is now, keeping its speed.
        if animator.isAnimating(drag.copy, \.frame) {
            animator.animate(drag.copy, \.frame, to: target, with: PhotoDragOut.lift)
        } else {
            drag.copy.frame = target
        }
    }

    /// The finger let go at `point` (`cancelled`: the system took the touch): in the window (`bounds`) the copy
    /// flies back where it was lifted from; outside it, the other program has it, and the copy fades.
    func ended(at point: Point, cancelled: Bool, in bounds: Rect) {
        guard let drag = dragOut else { return }
        dragOut = nil
        let copy = drag.copy
        if !cancelled, !bounds.contains(point) {
            animator.animate(copy, \.alpha, to: 0, with: PhotoDragOut.fade) { _ in copy.removeFromParent() }
        } else {
            animator.animate(copy, \.alpha, to: 1, with: PhotoDragOut.flyBack)
            animator.animate(copy, \.frame, to: drag.origin, with: PhotoDragOut.flyBack) { _ in copy.removeFromParent() }
        }
    }
}
