import Geometry
import SceneGraph

/// What each side of a zoom transition tells the animator, with the seeds' names: the node that
/// shows the photo on that screen and where it is. The animator hides it while the flying copy is
/// in the air (the phantom-image rule) and shows it again at the end.
public protocol ZoomAnimatorDelegate: AnyObject {
    func transitionWillStartWith(zoomAnimator: ZoomAnimator)
    func transitionDidEndWith(zoomAnimator: ZoomAnimator)
    /// The node showing the photo (a grid cell, the viewer's photo).
    func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node?
    /// That node's frame in window coordinates; nil when it can't be shown.
    func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect?
}
