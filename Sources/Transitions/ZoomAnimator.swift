import Animation
import Geometry
import Pixels
import SceneGraph

/// Flies a copy of the photo between its grid cell and its place in the viewer (the seeds'
/// `ZoomAnimator`). The copy is aspect-filled and clipped, so it matches the square cell at one
/// end and, having the photo's own aspect ratio there, the aspect-fit frame at the other. While it
/// flies, both reference images are hidden: the photo is on screen exactly once.
public final class ZoomAnimator {
    public let animator: Animator
    /// The node the copy flies in (above the screens, below the tab bar), in window coordinates.
    public let layer: Node
    public private(set) var isPresenting = true
    /// Reduce motion: the zoom-in and the fly-back cross-fade in place (`ZoomTiming.crossFade`)
    /// instead of flying. Read when a flight starts.
    public var crossFades = false
    /// The flying copy, while a transition runs.
    public private(set) var transitionImage: Node?

    public init(animator: Animator, layer: Node) {
        self.animator = animator
        self.layer = layer
    }

    public var isRunning: Bool { transitionImage != nil }

    /// What moves the flight under way; nil with none.
    public var mover: Flight.Mover? {
        guard let flight else { return nil }
        if flight.crossFade != nil { return .crossFade }
        switch flight.motion {
        case .spring: return .spring
        case .curve, .decay: return .curve
        }
    }

    /// The flight under way: where it goes, how, and what ends it (kept for a resize mid-flight).
    private var flight: (from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, motion: Motion, fade: Node, chrome: Node?,
                         crossFade: CrossFade?, land: (AnimationEnd) -> Void, completion: (Bool) -> Void)?

    /// A cross-fade in place: the copy stays on the viewer's photo while the cell shows through it.
    /// The two alphas sum to one on every frame, so the photo still shows once in all.
    private struct CrossFade {
        /// The grid's cell, faded instead of hidden.
        let cell: Node?
    }

    /// Whether `point` (window coordinates) is on the flying photo.
    public func isFlyingPhoto(at point: Point) -> Bool {
        guard let copy = transitionImage else { return false }
        return copy.convert(copy.bounds, to: nil).contains(point)
    }

    /// A finger (or a key) took the flying photo: the flight stops where it is and its completion is
    /// told it did not land. The copy stays in the layer with both references still hidden; the
    /// caller (an interactive dismissal) takes it over, with the velocity of its centre, points/s.
    public func interrupt() -> (photo: Node, velocity: Point)? {
        guard let copy = transitionImage, let flight else { return nil }
        self.flight = nil
        transitionImage = nil
        let v = animator.velocity(of: copy, \.center) ?? .zero
        animator.cancelAll(tagged: ZoomAnimator.flightTag)
        if let crossFade = flight.crossFade {
            // Taken mid-fade: the photo is whole again, in one place (the finger's).
            copy.alpha = 1
            crossFade.cell?.alpha = 1
            crossFade.cell?.isHidden = true
        }
        flight.from.transitionDidEndWith(zoomAnimator: self)
        flight.to.transitionDidEndWith(zoomAnimator: self)
        flight.completion(false)
        return (copy, v)
    }

    /// The window changed size mid-flight: the copy heads for where the destination is now,
    /// keeping its velocity (a spring takes it over; a curve starts again from where the copy is).
    public func destinationMoved() {
        guard let copy = transitionImage, let flight else { return }
        if flight.crossFade != nil {
            // It stays on the viewer's photo, wherever that is now.
            let viewer = isPresenting ? flight.to : flight.from
            if let frame = viewer.referenceImageFrameInTransitioningView(for: self) { copy.frame = layer.convert(frame, from: nil) }
            return
        }
        guard let end = flight.to.referenceImageFrameInTransitioningView(for: self) else { return }
        fly(copy, to: layer.convert(end, from: nil), with: flight.motion, completion: flight.land)
    }

    /// The copy's centre and size move with `motion` (its frame is derived from them: one property,
    /// one animation); `completion` follows the centre.
    private func fly(_ copy: Node, to end: Rect, with motion: Motion, completion: @escaping (AnimationEnd) -> Void) {
        animator.animate(copy, \.bounds.size, to: end.size, with: motion, tag: ZoomAnimator.flightTag)
        animator.animate(copy, \.center, to: end.center, with: motion, tag: ZoomAnimator.flightTag, completion: completion)
    }

    /// Tags the animations of a flight (the copy, the background, the tab bar): a finger stops them at once.
    static let flightTag = "zoomFlight"

    /// Zoom in from `from` (the grid) to `to` (the viewer): `fade` goes 0 → 1 (the viewer's
    /// background), `chrome` → 0 (the tab bar). `completion(landed)`: false when a finger took the photo.
    public func zoomIn(from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                       fade: Node, chrome: Node?, completion: @escaping (Bool) -> Void) {
        isPresenting = true
        run(from: from, to: to, image: image, name: name, motion: crossFades ? ZoomTiming.crossFade : ZoomTiming.zoomIn, fade: (fade, 0, 1),
            chrome: chrome, chromeAlpha: 0, completion: completion)
    }

    /// Zoom out from `from` (the viewer) to `to` (the grid): `fade` 1 → 0, `chrome` → 1.
    public func zoomOut(from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                        fade: Node, chrome: Node?, completion: @escaping (Bool) -> Void) {
        isPresenting = false
        run(from: from, to: to, image: image, name: name, motion: crossFades ? ZoomTiming.crossFade : ZoomTiming.zoomOut,
            fade: (fade, fade.alpha, 0),
            chrome: chrome, chromeAlpha: 1, completion: completion)
    }

    /// The flying copy, added to the layer: aspect-filled and clipped like a cell.
    func makeTransitionImage(_ image: PixelImage, name: String?, frame: Rect) -> Node {
        let copy = Node(name: "transitionImage", frame: frame)
        copy.image = image
        copy.contentsName = name
        copy.contentMode = .aspectFill
        copy.clipsToBounds = true
        layer.addChild(copy)
        return copy
    }

    private func run(from: ZoomAnimatorDelegate, to: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                     motion: Motion, fade: (node: Node, start: Double, end: Double), chrome: Node?, chromeAlpha: Double,
                     completion: @escaping (Bool) -> Void) {
        from.transitionWillStartWith(zoomAnimator: self)
        to.transitionWillStartWith(zoomAnimator: self)
        let start = from.referenceImageFrameInTransitioningView(for: self) ?? .zero
        let end = to.referenceImageFrameInTransitioningView(for: self) ?? start
        let fromImage = from.referenceImageNode(for: self), toImage = to.referenceImageNode(for: self)
        let crossFade = crossFades ? CrossFade(cell: isPresenting ? fromImage : toImage) : nil
        fromImage?.isHidden = true
        toImage?.isHidden = true

        let copy = makeTransitionImage(image, name: name, frame: layer.convert(crossFade == nil ? start : isPresenting ? end : start,
                                                                               from: nil))
        transitionImage = copy

        fade.node.alpha = fade.start
        animator.animate(fade.node, \.alpha, to: fade.end, with: motion, tag: ZoomAnimator.flightTag)
        if let chrome { animator.animate(chrome, \.alpha, to: chromeAlpha, with: motion, tag: ZoomAnimator.flightTag) }
        let land: (AnimationEnd) -> Void = { [weak self] end in
            // A resize sent it elsewhere, or a finger took it (`interrupt`): not landed.
            guard end == .finished else { return }
            // One step: the copy goes and both references come back in the same frame.
            copy.removeFromParent()
            fromImage?.isHidden = false
            toImage?.isHidden = false
            crossFade?.cell?.alpha = 1
            guard let self else { return completion(true) }
            transitionImage = nil
            flight = nil
            from.transitionDidEndWith(zoomAnimator: self)
            to.transitionDidEndWith(zoomAnimator: self)
            completion(true)
        }
        flight = (from, to, motion, fade.node, chrome, crossFade, land, completion)
        if let cell = crossFade?.cell {
            // The cell shows through as the copy fades: their alphas sum to one.
            cell.isHidden = false
            cell.alpha = isPresenting ? 1 : 0
            animator.animate(cell, \.alpha, to: isPresenting ? 0 : 1, with: motion, tag: ZoomAnimator.flightTag)
        }
        if crossFade != nil {
            copy.alpha = isPresenting ? 0 : 1
            animator.animate(copy, \.alpha, to: isPresenting ? 1 : 0, with: motion, tag: ZoomAnimator.flightTag, completion: land)
        } else {
            fly(copy, to: layer.convert(end, from: nil), with: motion, completion: land)
        }
    }
}
