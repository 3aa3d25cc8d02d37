import Geometry
import SceneGraph

/// What input does to the photo in the air, each a verb that moves `state` on: take it, follow the finger (or
/// two), let it go, or `perform` what a key asks.
extension ZoomTransitionController {
    /// A press at `point` on the photo in the air (or a key turning a flight around, with no point): a released
    /// photo stops and the finger holds it again; a flight stops, handed over with the velocity of its centre for
    /// an interactive pop to adopt (`popInteractively(adopting:)`). Nil when the press missed, or nothing flies.
    public func take(at point: Point?) -> Taken? {
        if case .released = state, let point, interactionController.isReleasedPhoto(at: point) {
            interactionController.grabReleasedPhoto()
            state = .held
            return .regrabbed
        }
        guard animator.isRunning, point.map(animator.isFlyingPhoto(at:)) ?? true, let taken = animator.interrupt() else { return nil }
        state = .idle   // stopped where it is, until a pop adopts it
        return .stopped(photo: taken.photo, velocity: taken.velocity)
    }

    /// The finger holding the photo moved `translation` from where it took it.
    public func follow(translation: Point) {
        guard state == .held else { return }
        interactionController.update(translation: translation)
    }

    /// The finger let go at `translation`, moving at `velocity`: the seeds' rule sends the photo into its cell or
    /// springs it back.
    public func letGo(translation: Point, velocity: Point) {
        guard state == .held else { return }
        interactionController.end(translation: translation, velocity: velocity)
        noteRelease()
    }

    /// Let go without a drag (a photo taken in the air and let go, or a flight a key turned around): on toward
    /// `destination` from where it is, its centre moving at `velocity` (points/s).
    public func letGo(toward destination: Flight.Destination, velocity: Point = .zero) {
        guard state == .held else { return }
        interactionController.resume(finishing: destination == .cell, centerVelocity: velocity)
        noteRelease()
    }

    /// The touch sequence was cancelled (the system took the fingers): the photo springs back, the safe outcome.
    public func cancelHold() {
        guard state == .held else { return }
        interactionController.cancelPull()
        noteRelease()
    }

    /// What letting go at `translation` and `velocity` would do now: into the cell (true), or back.
    public func wouldFinish(translation: Point, velocity: Point) -> Bool {
        state == .held && interactionController.wouldFinish(translation: translation, velocity: velocity)
    }

    // MARK: Two fingers

    /// Two fingers took the photo held or pulled (a second finger joined the first): the pinch goes on from the
    /// scale and centre it has.
    public func holdWithTwoFingers() {
        guard isInteractive else { return }
        interactionController.beginPinch()
        state = .held
    }

    /// The fingers are `scale` times as far apart as when they took it, their centre at `center` (from `start`).
    public func follow(pinchScale scale: Double, center: Point, start: Point) {
        guard state == .held else { return }
        interactionController.updatePinch(scale: scale, center: center, start: start)
    }

    /// The fingers lifted: still closing, or small enough, the photo goes into its cell; opening again, back.
    public func letGo(pinchScale scale: Double, center: Point, start: Point, scaleVelocity: Double, centerVelocity: Point) {
        guard state == .held else { return }
        interactionController.endPinch(scale: scale, center: center, start: start, scaleVelocity: scaleVelocity,
                                       centerVelocity: centerVelocity)
        noteRelease()
    }

    // MARK: Keys

    /// What a key asks of the photo in the air (`Flight.answer`): a released photo heads the other way at once,
    /// from where it is at the speed it has (`.redirects`). `.turnsAround` is the caller's to carry out: `take` the
    /// flight, adopt it in an interactive pop, and `letGo(toward:)` the other end.
    public func perform(_ request: Flight.Request) -> Flight.Answer? {
        guard let answer = flight?.answer(request) else { return nil }
        if answer == .redirects {
            interactionController.redirect(finishing: request == .close)
            noteRelease()
        }
        return answer
    }

    /// The interactive pop let go: where the photo now heads.
    private func noteRelease() {
        guard interactionController.isRunning, interactionController.isReleased else { return }
        state = .released(toward: interactionController.isFinishing ? .cell : .viewer)
    }
}
