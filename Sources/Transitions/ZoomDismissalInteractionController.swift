import Animation
import Geometry
import Pixels
import SceneGraph

/// Pull the photo down to close it (the seeds' `ZoomDismissalInteractionController`): the photo
/// follows the finger on both axes, shrinks and fades the background by `DismissalFormulas`; on
/// release it springs back (0.5 s, ζ 0.9) or flies into its cell (0.25 s ease-out). The finger's
/// velocity carries into either, so position and speed are continuous at release.
public final class ZoomDismissalInteractionController {
    public enum Outcome: Sendable { case finished, cancelled }

    /// Cancel: back to the fit frame.
    public static let cancelMotion = Motion.spring(duration: 0.5, dampingRatio: 0.9)
    /// Finish: into the cell, s.
    public static let finishDuration = 0.25

    /// The zoom animator whose flights this controller drives by hand (as in the seeds).
    public let zoomAnimator: ZoomAnimator
    private var animator: Animator { zoomAnimator.animator }
    private var layer: Node { zoomAnimator.layer }
    /// The photo in the air, while a dismissal runs.
    public private(set) var transitionImage: Node?
    public private(set) var formulas: DismissalFormulas?

    private var from: ZoomAnimatorDelegate?
    private var to: ZoomAnimatorDelegate?
    private var hidden: [Node] = []
    private var fade: Node?
    private var chrome: Node?
    private var completion: ((Outcome) -> Void)?
    private var lastTranslation: Point?

    public init(zoomAnimator: ZoomAnimator) { self.zoomAnimator = zoomAnimator }

    public var isRunning: Bool { transitionImage != nil }
    /// Let go: springing back or flying into the cell.
    public private(set) var isReleased = false

    /// The finger took the photo (`from`, the viewer) toward `to` (the grid); `fade` is the viewer's
    /// background, `chrome` the tab bar.
    public func begin(from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                      fade: Node, chrome: Node?, viewHeight: Double, completion: @escaping (Outcome) -> Void) {
        from.transitionWillStartWith(zoomAnimator: zoomAnimator)
        to.transitionWillStartWith(zoomAnimator: zoomAnimator)
        let fit = layer.convert(from.referenceImageFrameInTransitioningView(for: zoomAnimator) ?? .zero, from: nil)
        hidden = [from.referenceImageNode(for: zoomAnimator), to.referenceImageNode(for: zoomAnimator)].compactMap { $0 }
        hidden.forEach { $0.isHidden = true }
        transitionImage = zoomAnimator.makeTransitionImage(image, name: name, frame: fit)
        formulas = DismissalFormulas(viewHeight: viewHeight, anchor: fit.center, photoHeight: fit.height)
        self.from = from
        self.to = to
        self.fade = fade
        self.chrome = chrome
        self.completion = completion
        isReleased = false
        lastTranslation = nil
    }

    /// The window changed size while the finger holds the photo: the formulas take the new fit
    /// frame and height, so the photo stays under the finger by the same rules.
    public func layoutChanged(viewHeight: Double) {
        guard transitionImage != nil, !isReleased, let from,
              let fit = from.referenceImageFrameInTransitioningView(for: zoomAnimator) else { return }
        let frame = layer.convert(fit, from: nil)
        transitionImage?.bounds.size = frame.size
        formulas = DismissalFormulas(viewHeight: viewHeight, anchor: frame.center, photoHeight: frame.height)
        if let lastTranslation { update(translation: lastTranslation) }
    }

    public func update(translation: Point) {
        lastTranslation = translation
        guard let copy = transitionImage, let f = formulas else { return }
        fade?.alpha = f.backgroundAlpha(translation)
        chrome?.alpha = f.tabBarAlpha(translation)
        copy.transform = Transform2D(scale: f.scale(translation))
        copy.center = f.center(translation)
    }

    /// The finger let go: the seeds' rule picks cancel or finish.
    public func end(translation: Point, velocity: Point) {
        guard let copy = transitionImage, let f = formulas else { return }
        update(translation: translation)
        isReleased = true
        let centerVelocity = f.centerVelocity(translation, velocity: velocity)
        let scaleVelocity = f.scaleVelocity(translation, velocity: velocity)
        if f.releaseFinishes(translation: translation, velocity: velocity),
           let cell = to?.referenceImageFrameInTransitioningView(for: zoomAnimator) {
            finish(copy, into: layer.convert(cell, from: nil), centerVelocity: centerVelocity, scaleVelocity: scaleVelocity)
        } else {
            cancel(copy, centerVelocity: centerVelocity, scaleVelocity: scaleVelocity, anchor: f.anchor)
        }
    }

    private func cancel(_ copy: Node, centerVelocity: Point, scaleVelocity: Double, anchor: Point) {
        let motion = ZoomDismissalInteractionController.cancelMotion
        if let fade { animator.animate(fade, \.alpha, to: 1, with: motion) }
        if let chrome { animator.animate(chrome, \.alpha, to: 0, with: motion) }
        animator.animate(copy, \.transform, to: .identity, with: motion,
                         initialVelocity: Transform2D(a: scaleVelocity, b: 0, c: 0, d: scaleVelocity, tx: 0, ty: 0))
        animator.animate(copy, \.center, to: anchor, with: motion, initialVelocity: centerVelocity) { [weak self] _ in
            self?.complete(.cancelled)
        }
    }

    private func finish(_ copy: Node, into cell: Rect, centerVelocity: Point, scaleVelocity: Double) {
        let duration = ZoomDismissalInteractionController.finishDuration
        /// An ease-out from `from` to `to` that leaves at `velocity` (units per second).
        func curve(_ from: Double, _ to: Double, _ velocity: Double) -> Motion {
            let distance = to - from
            let slope = abs(distance) < 1e-6 ? 0 : velocity * duration / distance
            return .curve(.easeOut(initialSlope: slope), duration: duration)
        }
        if let fade { animator.animate(fade, \.alpha, to: 0, with: .curve(.easeOut, duration: duration)) }
        if let chrome { animator.animate(chrome, \.alpha, to: 1, with: .curve(.easeOut, duration: duration)) }
        // The shown size is bounds × scale: the bounds start still, the scale keeps its speed.
        animator.animate(copy, \.bounds.size, to: cell.size, with: .curve(.easeOut(initialSlope: 0), duration: duration))
        animator.animate(copy, \.transform, to: .identity, with: curve(copy.transform.a, 1, scaleVelocity))
        animator.animate(copy, \.center.x, to: cell.midX, with: curve(copy.center.x, cell.midX, centerVelocity.x))
        animator.animate(copy, \.center.y, to: cell.midY, with: curve(copy.center.y, cell.midY, centerVelocity.y)) {
            [weak self] _ in self?.complete(.finished)
        }
    }

    private func complete(_ outcome: Outcome) {
        transitionImage?.removeFromParent()
        transitionImage = nil
        hidden.forEach { $0.isHidden = false }
        hidden = []
        from?.transitionDidEndWith(zoomAnimator: zoomAnimator)
        to?.transitionDidEndWith(zoomAnimator: zoomAnimator)
        from = nil
        to = nil
        let done = completion
        completion = nil
        done?(outcome)
    }
}
