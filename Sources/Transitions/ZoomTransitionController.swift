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
    public typealias PhotoScreen = Screen & ZoomAnimatorDelegate

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

    /// What a press (or a key turning a flight around) took.
    public enum Taken {
        /// The released photo: the finger holds it again, the pull going on.
        case regrabbed
        /// A flight, stopped where it is at the velocity of its centre: an interactive pop adopts it.
        case stopped(photo: Node, velocity: Point)
    }

    public let stack: NavigationStack
    public let animator: ZoomAnimator
    let interactionController: ZoomDismissalInteractionController
    private let chrome: Node?
    public internal(set) var state = State.idle

    /// `layer`: where the photo flies, above the stack's screens; `style`: how a released pull moves.
    public init(stack: NavigationStack, animator: Animator, layer: Node, chrome: Node?, style: MotionStyle = .fluid) {
        self.stack = stack
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
    /// `covered` runs once the screen covers `source`, or a finger took the photo on the way.
    public func push(_ screen: PhotoScreen, from source: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                     animated: Bool, covered: @escaping () -> Void) {
        stack.push(screen) { [animator, chrome] done in
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

    /// Pops `screen`, its photo flying into `destination`. `completion(popped)`: false when a finger
    /// took the photo on the way (the screen stays for an interactive pop).
    public func pop(_ screen: PhotoScreen, to destination: ZoomAnimatorDelegate, image: PixelImage, name: String?,
                    completion: @escaping (Bool) -> Void) {
        stack.pop { [animator, chrome] done in
            state = .flying(toward: .cell)
            animator.zoomOut(from: screen, to: destination, image: image, name: name, fade: screen.root, chrome: chrome) {
                [weak self] landed in
                self?.landed(from: .flying(toward: .cell))
                completion(landed)
                done(landed)
            }
        }
    }

    /// Pops `screen` following a finger (`interactionController` takes the finger from here); with
    /// `adopting`, the photo a finger took in mid-flight. `completion(popped)`: false when it sprang back.
    public func popInteractively(_ screen: PhotoScreen, to destination: ZoomAnimatorDelegate, image: PixelImage,
                                 name: String?, viewHeight: Double, adopting flying: Node? = nil,
                                 completion: @escaping (Bool) -> Void) {
        stack.pop { [interactionController, chrome] done in
            state = .held
            interactionController.begin(from: screen, to: destination, image: image, name: name, fade: screen.root,
                                        chrome: chrome, viewHeight: viewHeight, adopting: flying) { [weak self] outcome in
                self?.state = .idle
                completion(outcome == .finished)
                done(outcome == .finished)
            }
        }
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
        animator.destinationMoved()
        interactionController.layoutChanged(viewHeight: viewHeight)
    }
}
