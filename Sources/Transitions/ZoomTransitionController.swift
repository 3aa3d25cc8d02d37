import Animation
import Geometry
import Pixels
import SceneGraph

/// The seeds' `ZoomTransitionController`: the navigation stack's transition delegate between a
/// screen of thumbnails and a photo screen. A push zooms the photo out of its thumbnail and a pop
/// flies it back (`animator`, the `ZoomAnimator`); an interactive pop follows a finger
/// (`interactionController`, the `ZoomDismissalInteractionController`). The pushed screen's root is
/// the background that fades in and out; `chrome` (the tab bar) fades the other way.
///
/// It is the one owner of the photo in the air: its `state` says where the photo is, `flight` is read off it,
/// and what input does to the photo goes through its verbs (take it, follow, let go, `perform` a request).
public final class ZoomTransitionController {
    public typealias PhotoScreen = PullablePhotoScreen

    /// Where the photo in the air is.
    public enum State: Equatable, Sendable {
        /// Nothing is in the air.
        case idle
        /// On its own: zooming into the viewer, or flying back into its cell (a key, the back button).
        case flying(toward: Flight.Destination)
        /// A finger holds it: a pull, a pinch to close, or a photo taken in the air.
        case held
        /// Let go: springing back into the viewer, or flying into its cell.
        case released(toward: Flight.Destination)
    }

    public let stack: NavigationStack
    public let animator: ZoomAnimator
    let interactionController: ZoomDismissalInteractionController
    let chrome: Node?
    /// Where the photo is: every verb moves it on once, at its end.
    public internal(set) var state = State.idle
    /// The photo screen over its source, from its push until it has left the stack.
    var journey: Journey?
    /// The window's height, points: a pull's formulas are made for it.
    var viewHeight: Double

    /// The photo screen pushed over `source`; `left` runs once it has left the stack (popped, by any route).
    struct Journey {
        let screen: PhotoScreen
        let source: ZoomAnimatorDelegate
        let left: () -> Void
    }

    /// `layer`: where the photo flies, above the stack's screens; `viewHeight`: the window's, points; `style`: how a
    /// released pull moves.
    public init(stack: NavigationStack, animator: Animator, layer: Node, chrome: Node?, viewHeight: Double,
                style: MotionStyle = .fluid) {
        self.stack = stack
        self.viewHeight = viewHeight
        self.animator = ZoomAnimator(animator: animator, layer: layer)
        interactionController = ZoomDismissalInteractionController(zoomAnimator: self.animator, style: style)
        self.chrome = chrome
    }

    public var isTransitioning: Bool { stack.isTransitioning }
    /// The pop under way follows a finger (or was let go by one).
    public var isInteractive: Bool {
        switch state {
        case .held, .released: true
        case .idle, .flying: false
        }
    }

    /// Pushes `screen`, its photo zooming out of `source` (or there at once, not `animated`);
    /// `covered` runs once the screen covers `source`, or a finger took the photo on the way; `left` once the
    /// screen has left the stack again.
    public func push(_ screen: PhotoScreen, from source: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                     animated: Bool, covered: @escaping () -> Void, left: @escaping () -> Void) {
        stack.push(screen) { [animator, chrome] done in
            journey = Journey(screen: screen, source: source, left: left)
            guard animated else {
                chrome?.alpha = 0
                covered()
                return done()
            }
            state = .flying(toward: .viewer)
            animator.zoomIn(from: source, to: screen, image: image, name: name, fade: screen.root, chrome: chrome) { [weak self] _ in
                self?.landed(from: .flying(toward: .viewer))
                covered()
                done()
            }
        }
    }

    /// Flies the photo screen's photo into its cell (Escape, the back button, with nothing in the air).
    public func pop() {
        guard state == .idle, !isTransitioning, let journey, let image = journey.screen.image else { return }
        stack.pop { [animator, chrome] done in
            state = .flying(toward: .cell)
            animator.zoomOut(from: journey.screen, to: journey.source, image: image, name: journey.screen.photoName,
                             fade: journey.screen.root, chrome: chrome) { [weak self] landed in
                self?.landed(from: .flying(toward: .cell))
                if landed { self?.leave() }
                done(landed)
            }
        }
    }

    /// An interactive pop of the photo screen begins, following a finger from here (`interactionController`
    /// takes it); with `adopting`, the photo a finger or a key stopped in mid-flight. False when there is no
    /// photo screen to pop, or it shows no photo. The caller sets the state it leads to.
    func beginPull(adopting flying: Node? = nil) -> Bool {
        guard !isTransitioning, let journey, let image = journey.screen.image else { return false }
        // A pull starts at fit, bars hidden; a photo taken from a flight out of a zoomed page comes back at fit.
        journey.screen.pullBegan()
        stack.pop { [interactionController, chrome, viewHeight] done in
            interactionController.begin(from: journey.screen, to: journey.source, image: image, name: journey.screen.photoName,
                                        fade: journey.screen.root, chrome: chrome, viewHeight: viewHeight,
                                        adopting: flying) { [weak self] outcome in
                self?.state = .idle
                if outcome == .finished { self?.leave() } else { journey.screen.pullCancelled() }
                done(outcome == .finished)
            }
        }
        return true
    }

    /// The photo screen has left the stack.
    private func leave() {
        let left = journey?.left
        journey = nil
        left?()
    }

    /// A flight that was `flight` is over (landed, or stopped by a finger that now holds it).
    private func landed(from flight: State) {
        if state == flight { state = .idle }
    }

    /// A sharper decode of the photo zooming in (nothing else flying): the copy flies on with it. The same photo has the
    /// same shape, and the copy fills its frame, so nothing moves; a smaller picture is ignored.
    public func sharpenFlyingPhoto(_ image: PixelImage) {
        guard let copy = animator.transitionImage, animator.isPresenting,
              (copy.image?.width ?? 0) < image.width else { return }
        copy.image = image
        // Its fit frame in the viewer may have moved by a fraction of a pixel with the exact size.
        animator.destinationMoved()
    }

    /// The copy in the air (a flight's, or the one a finger pulls), if there is one.
    public var flyingPhoto: Node? { interactionController.transitionImage ?? animator.transitionImage }

    /// The photo in the air, if one is: where it is in its journey (`state`) and what moves it.
    public var flight: Flight? {
        switch state {
        case .idle: nil
        case .flying(toward: .viewer): Flight(.zoomingIn, by: animator.mover ?? .spring)
        case .flying(toward: .cell): Flight(.flyingBack, by: animator.mover ?? .curve)
        case .held: Flight(.held, by: .finger)
        case .released(toward: .viewer): Flight(.springingBack, by: .spring)
        case .released(toward: .cell): Flight(.flyingHome, by: .curve)
        }
    }

    /// The photo in the air's scale (1 for a flight, whose size changes instead).
    public var flyingScale: Double? {
        interactionController.transitionImage?.transform.a ?? animator.transitionImage.map { _ in 1 }
    }

    /// The window changed size: a flight heads for where its destination is now, and a pull takes
    /// the new height.
    public func layoutChanged(viewHeight: Double) {
        self.viewHeight = viewHeight
        animator.destinationMoved()
        interactionController.layoutChanged(viewHeight: viewHeight)
    }
}
