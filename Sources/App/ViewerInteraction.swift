import Gestures
import Input
import Geometry
import Viewer

/// What gestures do in the viewer: a one-finger drag pages, pans a zoomed photo or pulls it out; a
/// pinch zooms, or at fit pulls it out; a double tap zooms; a single tap (once no double tap came)
/// toggles the bars; a press on a photo in the air takes it. Each handler has its start, change
/// and end; the recognizers that call them belong to `PhotoViewerApp`.
final class ViewerInteraction {
    private let navigator: PhotoNavigator
    /// What the one-finger drag under way does.
    private var viewerDrag: PhotoViewerScreen.DragRole?
    /// What the pinch under way does: zoom the page, or pull the photo out (nil: not decided yet).
    private var pinchRole: PinchRole?
    private enum PinchRole { case zooming, dismissing }
    /// A pinch began at fit and has not moved yet: its first move decides.
    private var pinchPending = false
    /// A photo taken in mid-air by the press under way, not dragged yet.
    private var isHoldingTakenPhoto = false

    init(navigator: PhotoNavigator) { self.navigator = navigator }

    func drag(_ pan: PanRecognizer) {
        let t = pan.translation
        switch pan.state {
        case .began:
            if viewerDrag == .dismissing { return navigator.updateDismissal(translation: t) }   // taken in mid-air
            guard let viewer = navigator.viewer, !navigator.isTransitioning, pinchRole == nil else { return }
            var role = viewer.role(forDragStartingWith: t)
            switch role {
            case .paging:
                viewer.beginPaging()
                viewer.dragPaging(translation: t.x)
            case .panning:
                viewer.beginPan()
                viewer.pan(translation: t)
            case .dismissing:
                if navigator.beginDismissal() { navigator.updateDismissal(translation: t) } else { role = .none }
            case .none:
                break
            }
            viewerDrag = role
        case .changed:
            switch viewerDrag {
            case .paging?: navigator.viewer?.dragPaging(translation: t.x)
            case .panning?: navigator.viewer?.pan(translation: t)
            case .dismissing?: navigator.updateDismissal(translation: t)
            case .none?, nil: break
            }
        case .ended, .cancelled:
            let velocity = pan.state == .ended ? pan.velocity : .zero
            switch viewerDrag {
            case .paging?: navigator.viewer?.endPaging(velocity: velocity.x)
            case .panning?: navigator.viewer?.endPan(velocity: velocity)
            // A cancelled touch sequence springs back: closing is not what anyone asked for.
            case .dismissing?: pan.state == .ended ? navigator.endDismissal(translation: t, velocity: velocity) : navigator.cancelDismissal()
            case .none?, nil: break
            }
            viewerDrag = nil
            isHoldingTakenPhoto = false
        default:
            return
        }
    }

    func pinch(_ pinch: PinchRecognizer) {
        guard let viewer = navigator.viewer else { return }
        switch pinch.state {
        case .began:
            if viewerDrag == .dismissing {
                // A second finger joined a pull (or a photo taken in mid-air): the two carry it on.
                viewerDrag = nil
                isHoldingTakenPhoto = false
                navigator.beginPinchDismissal()
                pinchRole = .dismissing
                return
            }
            guard !navigator.isTransitioning else { return }
            // Zoomed, the pinch zooms; at fit, its first move decides: apart zooms, together closes.
            if viewer.isZoomed {
                viewer.beginPinch(center: pinch.startCenter)
                pinchRole = .zooming
            } else {
                pinchRole = nil
                pinchPending = true
            }
        case .changed:
            if pinchPending, pinch.scale != 1 {
                pinchPending = false
                if pinch.scale < 1, navigator.beginDismissal() {
                    navigator.beginPinchDismissal()
                    pinchRole = .dismissing
                } else {
                    viewer.beginPinch(center: pinch.startCenter)
                    pinchRole = .zooming
                }
            }
            switch pinchRole {
            case .zooming?: viewer.pinch(scale: pinch.scale, center: pinch.center)
            case .dismissing?: navigator.updatePinchDismissal(scale: pinch.scale, center: pinch.center, start: pinch.startCenter)
            case nil: break
            }
        case .ended, .cancelled:
            switch pinchRole {
            case .zooming?: viewer.endPinch(center: pinch.center)
            case .dismissing?:
                if pinch.state == .ended {
                    navigator.endPinchDismissal(scale: pinch.scale, center: pinch.center, start: pinch.startCenter,
                                                scaleVelocity: pinch.scaleVelocity, centerVelocity: pinch.velocity)
                } else {
                    navigator.cancelDismissal()   // a cancelled pinch springs back
                }
            case nil: break
            }
            pinchRole = nil
            pinchPending = false
        default:
            return
        }
    }

    /// A single tap in the viewer (no second tap came): the bars fade out, or back in.
    func tap(at point: Point) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, !viewer.isBackButton(at: point) else { return }
        viewer.toggleBars()
    }

    /// A double tap: to 3× fit centred on it, or back to fit.
    func doubleTap(at point: Point) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, !viewer.isBackButton(at: point) else { return }
        viewer.doubleTap(at: point)
    }

    /// A mouse wheel's notches, or anything with Ctrl, zoom about the pointer, as in most photo
    /// viewers; a touchpad's smooth scrolling (and a sideways wheel) moves a zoomed photo.
    func scroll(dx: Double, dy: Double, unit: ScrollUnit, at point: Point, control: Bool) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        if control || unit == .notches && dx == 0 {
            viewer.wheelZoom(notches: dy, at: point)
        } else {
            viewer.scroll(dx: dx, dy: dy, gliding: unit == .notches)
        }
    }

    /// Left and Right turn the page; on a zoomed photo the arrows move it, and Left or Right at its
    /// edge turn the page.
    func arrowKey(_ name: String) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        let step: (dx: Double, dy: Double) = switch name {
        case "Left": (-1, 0)
        case "Right": (1, 0)
        case "Up": (0, -1)
        case "Down": (0, 1)
        default: (0, 0)
        }
        if viewer.isZoomed, !(step.dx != 0 && viewer.isAtEdge(towards: step.dx)) {
            viewer.scroll(dx: step.dx, dy: step.dy, gliding: true)
        } else if step.dx != 0 {
            viewer.page(by: Int(step.dx))
        }
    }

    /// `+` / `=`, `-`, `0` (fit) and `1` (100 %).
    func zoomKey(_ name: String) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        switch name {
        case "plus", "equal", "KP_Add": viewer.zoom(steps: 1)
        case "minus", "KP_Subtract": viewer.zoom(steps: -1)
        case "0", "KP_0": viewer.zoomToFit()
        default: viewer.zoomToActualSize()
        }
    }

    /// A press on the photo while it flies or springs: it stops there, and the finger carries it on
    /// as a pull.
    func press(at point: Point) {
        guard navigator.grab(at: point) else { return }
        viewerDrag = .dismissing
        isHoldingTakenPhoto = true
    }

    /// The last finger lifted. A photo taken in mid-air and let go without a drag (a tap on it, or a
    /// double click on a thumbnail) opens, from where it is.
    func release() {
        guard viewerDrag == .dismissing, isHoldingTakenPhoto else { return }
        navigator.resumeDismissal()
        viewerDrag = nil
        isHoldingTakenPhoto = false
    }
}
