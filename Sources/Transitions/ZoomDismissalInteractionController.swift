import Animation
import Geometry
import Pixels
import SceneGraph

/// Pull the photo down to close it (the seeds' `ZoomDismissalInteractionController`): the photo
/// follows the finger on both axes, shrinks and fades the background by `DismissalFormulas`; on
/// release it springs back (0.5 s, ζ 0.9) or flies into its cell (0.25 s ease-out, sooner after a
/// throw too fast to ease out in that time without passing the cell). The finger's velocity carries
/// into either, so position and speed are continuous at release. A pinch at fit
/// feeds the same dismissal (pinch to close), and a photo grabbed in mid-air (a flight, a spring
/// back) goes on from where it is.
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

    /// How a release moves.
    public let style: MotionStyle

    public init(zoomAnimator: ZoomAnimator, style: MotionStyle = .fluid) {
        self.zoomAnimator = zoomAnimator
        self.style = style
    }

    public var isRunning: Bool { transitionImage != nil }
    /// Let go: springing back or flying into the cell.
    public private(set) var isReleased = false
    /// Let go toward the cell (false: springing back).
    public private(set) var isFinishing = false

    /// The finger took the photo (`from`, the viewer) toward `to` (the grid); `fade` is the viewer's
    /// background, `chrome` the tab bar. With `adopting`, the photo is already in the air (a flight
    /// grabbed mid-way): it stays where it is, and the finger carries it on from there.
    public func begin(from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                      fade: Node, chrome: Node?, viewHeight: Double, adopting flying: Node? = nil,
                      completion: @escaping (Outcome) -> Void) {
        from.transitionWillStartWith(zoomAnimator: zoomAnimator)
        to.transitionWillStartWith(zoomAnimator: zoomAnimator)
        let fit = layer.convert(from.referenceImageFrameInTransitioningView(for: zoomAnimator) ?? .zero, from: nil)
        hidden = [from.referenceImageNode(for: zoomAnimator), to.referenceImageNode(for: zoomAnimator)].compactMap { $0 }
        hidden.forEach { $0.isHidden = true }
        fitSize = fit.size
        formulas = DismissalFormulas(viewHeight: viewHeight, anchor: fit.center, photoHeight: fit.height)
        self.from = from
        self.to = to
        self.fade = fade
        self.chrome = chrome
        self.completion = completion
        if let flying {
            transitionImage = flying
            grabHere()
        } else {
            transitionImage = zoomAnimator.makeTransitionImage(image, name: name, frame: fit)
            grab = .none
            isReleased = false
            lastTranslation = nil
        }
    }

    /// Whether `point` (window coordinates) is on the photo while it springs back or flies into its cell.
    public func isReleasedPhoto(at point: Point) -> Bool {
        guard isReleased, let copy = transitionImage else { return false }
        return copy.convert(copy.bounds, to: nil).contains(point)
    }

    /// A press on the released photo: it stops where it is and follows the finger again (the
    /// dismissal goes on; nothing else changes).
    public func grabReleasedPhoto() {
        guard isReleased, transitionImage != nil else { return }
        grabHere()
    }

    /// The window changed size. While the finger holds the photo, the formulas take the new fit frame
    /// and height, so the photo stays under the finger by the same rules; once let go, it heads for
    /// where its fit frame or its cell is now, from where it is and at the speed it has.
    public func layoutChanged(viewHeight: Double) {
        guard let copy = transitionImage, let from,
              let fit = from.referenceImageFrameInTransitioningView(for: zoomAnimator) else { return }
        let frame = layer.convert(fit, from: nil)
        fitSize = frame.size
        formulas = DismissalFormulas(viewHeight: viewHeight, anchor: frame.center, photoHeight: frame.height)
        guard isReleased else {
            copy.bounds.size = frame.size
            if let lastTranslation { update(translation: lastTranslation) }
            return
        }
        let v = velocities(of: copy)
        release(finishing: isFinishing, centerVelocity: v.center, scaleVelocity: v.scale)
    }

    /// The finger moved `translation` from where it took the photo.
    public func update(translation: Point) {
        lastTranslation = translation
        guard let f = formulas else { return }
        let t = translation + grab.translation
        apply(scale: f.scale(t), center: f.center(t) + grab.center, alphaTranslation: t)
    }

    /// The finger let go: the seeds' rule picks cancel or finish.
    public func end(translation: Point, velocity: Point) {
        guard let f = formulas else { return }
        update(translation: translation)
        let t = translation + grab.translation
        release(finishing: wouldFinish(translation: translation, velocity: velocity),
                centerVelocity: f.centerVelocity(t, velocity: velocity), scaleVelocity: f.scaleVelocity(t, velocity: velocity))
    }

    /// The touch sequence was cancelled (the system took the fingers): the photo springs back from
    /// rest, the safe outcome.
    public func cancelPull() {
        guard transitionImage != nil, !isReleased else { return }
        release(finishing: false, centerVelocity: .zero, scaleVelocity: 0)
    }

    /// Let go without a drag (a photo taken in mid-air and let go, or a flight a key reversed): on
    /// to the cell, or back, from `centerVelocity` (points/s).
    public func resume(finishing: Bool, centerVelocity: Point = .zero) {
        release(finishing: finishing, centerVelocity: centerVelocity, scaleVelocity: 0)
    }

    /// A key turned the released photo around (Escape while it springs back, Return while it flies
    /// into its cell): it heads the other way from where it is, at the speed it has.
    public func redirect(finishing: Bool) {
        guard let copy = transitionImage, isReleased, isFinishing != finishing else { return }
        let v = velocities(of: copy)
        release(finishing: finishing, centerVelocity: v.center, scaleVelocity: v.scale)
    }

    /// How fast the released photo's centre (points/s) and scale (per s) move now.
    private func velocities(of copy: Node) -> (center: Point, scale: Double) {
        let center = animator.velocity(of: copy, \.center)
            ?? Point(x: animator.velocity(of: copy, \.center.x) ?? 0, y: animator.velocity(of: copy, \.center.y) ?? 0)
        return (center, animator.velocity(of: copy, \.transform)?.a ?? 0)
    }

    /// What letting go now would do (the seeds' rule, on the photo's centre where it is shown).
    public func wouldFinish(translation: Point, velocity: Point) -> Bool {
        guard let f = formulas else { return false }
        let t = translation + grab.translation
        return !(velocity.y < 0 || (f.center(t) + grab.center).y < f.anchor.y)
    }

    // MARK: Pinch to close

    /// Two fingers took the photo: at fit, or in the middle of a pull (a second finger joined the
    /// first), or in mid-air. The pinch goes on from the scale and centre it has now.
    public func beginPinch() {
        guard let copy = transitionImage else { return }
        pinchBase = (copy.transform.a, copy.center)
        isReleased = false
    }

    /// The fingers are `scale` times as far apart as when the pinch began: the photo shrinks with
    /// them and its point under their first centre `start` stays under their centre; background and
    /// tab bar follow the drag's formulas for the drag that shows the same scale.
    public func updatePinch(scale: Double, center: Point, start: Point) {
        guard let f = formulas else { return }
        let s = ZoomDismissalInteractionController.pinchScale(pinchBase.scale * scale)
        apply(scale: s, center: center + (pinchBase.center - start) * (s / pinchBase.scale),
              alphaTranslation: Point(x: 0, y: (1 - s) * f.viewHeight))
    }

    /// The fingers lifted: still closing, or let go small enough, finishes; opening again cancels.
    /// `scaleVelocity` is the pinch's, per s; the centre's velocity carries over as a drag's does.
    public func endPinch(scale: Double, center: Point, start: Point, scaleVelocity: Double, centerVelocity: Point) {
        updatePinch(scale: scale, center: center, start: start)
        let raw = pinchBase.scale * scale, s = ZoomDismissalInteractionController.pinchScale(raw)
        let closing = scaleVelocity < -ZoomDismissalInteractionController.pinchSpeedThreshold
        let opening = scaleVelocity > ZoomDismissalInteractionController.pinchSpeedThreshold
        let finishing = closing || (!opening && s < ZoomDismissalInteractionController.pinchCloseScale)
        // The photo's scale moves `base` times as fast as the fingers' (not at all where it is clamped).
        let fingers = s == raw ? scaleVelocity : 0
        release(finishing: finishing, centerVelocity: centerVelocity + (pinchBase.center - start) * fingers,
                scaleVelocity: pinchBase.scale * fingers)
    }

    /// The photo's scale and centre when the pinch began.
    private var pinchBase = (scale: 1.0, center: Point.zero)

    /// A pinch released below this scale (and not opening) closes the photo.
    public static let pinchCloseScale = 0.85
    /// Faster than this, in scale per s, a pinch counts as closing or opening.
    public static let pinchSpeedThreshold = 0.1
    /// The photo shrinks with the fingers down to this scale, and never grows past fit.
    public static let smallestPinchScale = 0.25

    static func pinchScale(_ scale: Double) -> Double { min(max(scale, smallestPinchScale), 1) }

    // MARK: Shared

    private func apply(scale: Double, center: Point, alphaTranslation t: Point) {
        guard let copy = transitionImage, let f = formulas else { return }
        fade?.alpha = min(max(f.backgroundAlpha(t) + grab.backgroundAlpha, 0), 1)
        chrome?.alpha = min(max(f.tabBarAlpha(t) + grab.tabBarAlpha, 0), 1)
        copy.transform = Transform2D(scale: scale)
        copy.center = center
    }

    private func release(finishing: Bool, centerVelocity: Point, scaleVelocity: Double) {
        guard let copy = transitionImage, let f = formulas else { return }
        isReleased = true
        isFinishing = finishing
        // One motion at a time: a finish's per-axis curves must not outlive a spring back, nor the reverse.
        animator.cancelAll(of: copy)
        // The seeds let go from rest.
        let (centerVelocity, scaleVelocity) = style == .seeds ? (Point.zero, 0.0) : (centerVelocity, scaleVelocity)
        if finishing, let cell = to?.referenceImageFrameInTransitioningView(for: zoomAnimator) {
            finish(copy, into: layer.convert(cell, from: nil), centerVelocity: centerVelocity, scaleVelocity: scaleVelocity)
        } else {
            cancel(copy, centerVelocity: centerVelocity, scaleVelocity: scaleVelocity, anchor: f.anchor)
        }
    }

    /// How a photo taken in mid-air maps onto the formulas: the translation whose scale it shows,
    /// and what its centre and alphas differ by from the formulas' there. All zero for a photo
    /// taken at rest.
    private struct Grab {
        var translation = Point.zero
        var center = Point.zero
        var backgroundAlpha = 0.0
        var tabBarAlpha = 0.0
        static let none = Grab()
    }
    private var grab = Grab.none
    /// The photo's size at fit, px.
    private var fitSize = Size(width: 0, height: 0)

    /// Stops the photo where it is and maps it onto the formulas, so the finger carries it on
    /// without a jump; its outline then settles to the fit frame's shape.
    private func grabHere() {
        guard let copy = transitionImage, let f = formulas, fitSize.width > 0, fitSize.height > 0 else { return }
        animator.cancelAll(of: copy)
        if let fade { animator.cancel(fade, \.alpha) }
        if let chrome { animator.cancel(chrome, \.alpha) }

        let shown = copy.frame
        let scale = min(max(max(shown.width / fitSize.width, shown.height / fitSize.height), DismissalFormulas.minimumScale), 1)
        let t = Point(x: 0, y: (1 - scale) * f.viewHeight)   // the drag whose formulas show this scale
        grab = Grab(translation: t, center: shown.center - f.center(t),
                    backgroundAlpha: (fade?.alpha ?? 0) - f.backgroundAlpha(t),
                    tabBarAlpha: (chrome?.alpha ?? 0) - f.tabBarAlpha(t))
        copy.transform = Transform2D(scale: scale)
        copy.bounds.size = Size(width: shown.width / scale, height: shown.height / scale)
        copy.center = shown.center
        animator.animate(copy, \.bounds.size, to: fitSize, with: ZoomDismissalInteractionController.reshapeMotion)
        isReleased = false
        lastTranslation = .zero
    }

    /// A grabbed photo's outline turns into the fit frame's shape with this.
    static let reshapeMotion = Motion.spring(response: 0.3, dampingRatio: 1)

    private func cancel(_ copy: Node, centerVelocity: Point, scaleVelocity: Double, anchor: Point) {
        let motion = ZoomDismissalInteractionController.cancelMotion
        if copy.bounds.size != fitSize { animator.animate(copy, \.bounds.size, to: fitSize, with: motion) }
        if let fade { animator.animate(fade, \.alpha, to: 1, with: motion) }
        if let chrome { animator.animate(chrome, \.alpha, to: 0, with: motion) }
        animator.animate(copy, \.transform, to: .identity, with: motion,
                         initialVelocity: Transform2D(a: scaleVelocity, b: 0, c: 0, d: scaleVelocity, tx: 0, ty: 0))
        animator.animate(copy, \.center, to: anchor, with: motion, initialVelocity: centerVelocity) { [weak self] end in
            if end == .finished { self?.complete(.cancelled) }   // not when a finger took it again
        }
    }

    private func finish(_ copy: Node, into cell: Rect, centerVelocity: Point, scaleVelocity: Double) {
        // Each quantity eases out from the speed it has toward its value in the cell. A throw so fast
        // that the curve would pass the cell lands sooner instead.
        let legs = [(copy.transform.a, 1.0, scaleVelocity), (copy.center.x, cell.midX, centerVelocity.x),
                    (copy.center.y, cell.midY, centerVelocity.y)]
        let duration = ZoomDismissalInteractionController.landingDuration(legs.map { (distance: $0.1 - $0.0, velocity: $0.2) })
        /// An ease-out from `from` to `to` that leaves at `velocity` (units per second); the seeds'
        /// ease-in-out from rest.
        func curve(_ from: Double, _ to: Double, _ velocity: Double) -> Motion {
            if style == .seeds { return ZoomTiming.seedsFinish }
            let distance = to - from
            let slope = abs(distance) < 1e-6 ? 0 : velocity * duration / distance
            return .curve(.easeOut(initialSlope: slope), duration: duration)
        }
        let fading = style == .seeds ? ZoomTiming.seedsFinish : .curve(.easeOut, duration: duration)
        if let fade { animator.animate(fade, \.alpha, to: 0, with: fading) }
        if let chrome { animator.animate(chrome, \.alpha, to: 1, with: fading) }
        // The shown size is bounds × scale: the bounds start still, the scale keeps its speed.
        animator.animate(copy, \.bounds.size, to: cell.size, with: curve(0, 1, 0))
        animator.animate(copy, \.transform, to: .identity, with: curve(legs[0].0, legs[0].1, legs[0].2))
        animator.animate(copy, \.center.x, to: cell.midX, with: curve(legs[1].0, legs[1].1, legs[1].2))
        animator.animate(copy, \.center.y, to: cell.midY, with: curve(legs[2].0, legs[2].1, legs[2].2)) {
            [weak self] end in if end == .finished { self?.complete(.finished) }
        }
    }

    /// The finish's duration: `finishDuration`, or shorter where a leg moving toward its end is so fast
    /// that the ease-out would overshoot (an initial slope v·T/d above `TimingCurve.maxEaseOutSlope`).
    static func landingDuration(_ legs: [(distance: Double, velocity: Double)]) -> Double {
        legs.reduce(finishDuration) { duration, leg in
            guard abs(leg.distance) > 1e-6, leg.velocity * leg.distance > 0 else { return duration }
            return min(duration, TimingCurve.maxEaseOutSlope * abs(leg.distance / leg.velocity))
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
        // The viewer's root (and with it every page's picture) is not held past its dismissal.
        fade = nil
        chrome = nil
        let done = completion
        completion = nil
        done?(outcome)
    }
}
