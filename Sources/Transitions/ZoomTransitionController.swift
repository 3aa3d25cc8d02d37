import Animation
import Geometry
import Pixels
import SceneGraph

/// The seeds' `ZoomTransitionController`: the navigation stack's transition delegate between a
/// screen of thumbnails and a photo screen. A push zooms the photo out of its thumbnail and a pop
/// flies it back (`animator`, the `ZoomAnimator`); an interactive pop follows a finger
/// (`interactionController`, the `ZoomDismissalInteractionController`). The pushed screen's root is
/// the background that fades in and out; `chrome` (the tab bar) fades the other way.
public final class ZoomTransitionController {
    public typealias PhotoScreen = Screen & ZoomAnimatorDelegate

    public let stack: NavigationStack
    public let animator: ZoomAnimator
    public let interactionController: ZoomDismissalInteractionController
    private let chrome: Node?

    /// `layer`: where the photo flies, above the stack's screens; `style`: how a released pull moves.
    public init(stack: NavigationStack, animator: Animator, layer: Node, chrome: Node?, style: MotionStyle = .fluid) {
        self.stack = stack
        self.animator = ZoomAnimator(animator: animator, layer: layer)
        interactionController = ZoomDismissalInteractionController(zoomAnimator: self.animator, style: style)
        self.chrome = chrome
    }

    public var isTransitioning: Bool { stack.isTransitioning }
    /// The pop under way follows a finger (or was let go by one).
    public var isInteractive: Bool { interactionController.isRunning }

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
            animator.zoomIn(from: source, to: screen, image: image, name: name, fade: screen.root, chrome: chrome) { _ in
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
            animator.zoomOut(from: screen, to: destination, image: image, name: name, fade: screen.root, chrome: chrome) {
                landed in
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
            interactionController.begin(from: screen, to: destination, image: image, name: name, fade: screen.root,
                                        chrome: chrome, viewHeight: viewHeight, adopting: flying) { outcome in
                completion(outcome == .finished)
                done(outcome == .finished)
            }
        }
    }

    /// A press at `point` on the photo while it zooms in or flies back (or a key, with no point):
    /// the flight stops, handing over the photo and the velocity of its centre. Nil when the press
    /// missed, or nothing flies.
    public func takeFlyingPhoto(at point: Point? = nil) -> (photo: Node, velocity: Point)? {
        guard animator.isRunning, point.map(animator.isFlyingPhoto(at:)) ?? true else { return nil }
        return animator.interrupt()
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

    /// The photo in the air, if one is: where it is in its journey and what moves it.
    public var flight: Flight? {
        if interactionController.isRunning {
            guard interactionController.isReleased else { return Flight(.held, by: .finger) }
            return interactionController.isFinishing ? Flight(.flyingHome, by: .curve) : Flight(.springingBack, by: .spring)
        }
        guard let mover = animator.mover else { return nil }
        return Flight(animator.isPresenting ? .zoomingIn : .flyingBack, by: mover)
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
