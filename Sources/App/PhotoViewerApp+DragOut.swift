import Animation
import Geometry
import Library

/// A long press lifts a grid cell's photo, or the open photo, for a drag into another program
/// (`PhotoDragOut`); the window's runner offers it to the window system while `draggedOutPhoto` says one is
/// lifted.
extension PhotoViewerApp {
    /// The photo lifted and dragged, while one is: past the window's edge the window system carries it on.
    public var draggedOutPhoto: Photo? { dragOut?.photo }

    /// A long press at `point`: lifts the cell's photo there, or the open photo (false: nothing to lift
    /// there: a bar, a cover, a photo in the air).
    func liftForDragOut(at point: Point) -> Bool {
        guard dragOut == nil, menu == nil, !navigator.isTransitioning else { return false }
        let lifted: (index: Int, origin: Rect)
        if navigator.isGridActive {
            guard !grid.showsCovers, let index = grid.index(at: point), photos.indices.contains(index) else { return false }
            let cell = grid.cell(at: index)
            lifted = (index, cell.convert(cell.bounds, to: nil))
        } else if let viewer = navigator.viewer, !viewer.isButton(at: point), !viewer.isInfoShown, photos.indices.contains(viewer.index) {
            lifted = (viewer.index, viewer.photoFrame)
        } else {
            return false
        }
        let picture = navigator.viewer?.image ?? grid.picture(at: lifted.index) ?? grid.cell(at: lifted.index).image
        let drag = PhotoDragOut(photo: photos[lifted.index], picture: picture, from: lifted.origin)
        root.addChild(drag.copy)
        dragOut = drag
        animator.animate(drag.copy, \.frame, to: drag.frame(at: point), with: PhotoDragOut.lift)
        animator.animate(drag.copy, \.alpha, to: PhotoDragOut.alpha, with: PhotoDragOut.lift)
        logger.debug("lifted \(drag.photo.name) to drag it out")
        return true
    }

    /// The finger carrying the lifted photo moved to `point` (past the window's edge too).
    func dragOutMoved(to point: Point) {
        guard let drag = dragOut else { return }
        let target = drag.frame(at: point)
        // Still lifting: the spring goes on to where the finger is now, keeping its speed.
        if animator.isAnimating(drag.copy, \.frame) {
            animator.animate(drag.copy, \.frame, to: target, with: PhotoDragOut.lift)
        } else {
            drag.copy.frame = target
        }
        setNeedsDisplay()
    }

    /// The finger let go at `point` (`cancelled`: the system took the touch): in the window the copy flies
    /// back where it was lifted from; outside it, the other program has it, and the copy fades.
    func dragOutEnded(at point: Point, cancelled: Bool) {
        guard let drag = dragOut else { return }
        dragOut = nil
        let copy = drag.copy
        if !cancelled, !Rect(origin: .zero, size: size).contains(point) {
            animator.animate(copy, \.alpha, to: 0, with: PhotoDragOut.fade) { _ in copy.removeFromParent() }
        } else {
            animator.animate(copy, \.alpha, to: 1, with: PhotoDragOut.flyBack)
            animator.animate(copy, \.frame, to: drag.origin, with: PhotoDragOut.flyBack) { _ in copy.removeFromParent() }
        }
    }
}
