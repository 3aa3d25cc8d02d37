import Geometry
import SceneGraph

/// What input does to the photo in the air, each a verb that moves `state` on: pull it out, take it, follow the finger (or
/// two), let it go, or `perform` what a key asks.
extension ZoomTransitionController {
    /// A downward drag or a pinch below fit took the photo at rest in the viewer: from here it follows the finger.
    /// False when it can't (nothing is open, or something moves the photo already).
    public func pull() -> Bool {
        guard state == .idle, beginPull() else { return false }
        state = .held
        return true
    }

    /// A press at `point` on the photo in the air: a released photo stops and the finger holds it again; a flight
    /// stops where it is, and the finger carries it on as a pull. False when the press missed, or nothing flies.
    public func take(at point: Point) -> Bool {
        if case .released = state, interactionController.isReleasedPhoto(at: point) {
            interactionController.grabReleasedPhoto()
            state = .held
            return true
        }
        guard animator.isFlyingPhoto(at: point), let stopped = stopFlight() else { return false }
        state = beginPull(adopting: stopped.photo) ? .held : .idle
        return state == .held
    }

    /// The flight, stopped where it is, with the velocity of its centre (points/s); nil when none flies or no photo
    /// screen is there to pull it into.
    private func stopFlight() -> (photo: Node, velocity: Point)? {
        guard journey != nil, animator.isRunning else { return nil }
        return animator.interrupt()
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

    /// Let go without a drag (a photo taken in the air and let go): on toward `destination` from where it is.
    public func letGo(toward destination: Flight.Destination) {
        guard state == .held else { return }
        interactionController.resume(finishing: destination == .cell)
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

    /// What a key asks of the photo in the air (`Flight.answer`): a flight turns around, and a released photo
    /// heads the other way, each at once from where it is at the speed it has.
    public func perform(_ request: Flight.Request) -> Flight.Answer? {
        guard let answer = flight?.answer(request) else { return nil }
        switch answer {
        case .turnsAround: turnAround(toward: request == .close ? .cell : .viewer)
        case .redirects:
            interactionController.redirect(finishing: request == .close)
            noteRelease()
        case .goesOn: break
        }
        return answer
    }

    /// A flight becomes a released pull toward `destination`, from where it is at the velocity it had: one change of
    /// state, from flying to released.
    private func turnAround(toward destination: Flight.Destination) {
        guard let stopped = stopFlight() else { return }
        guard beginPull(adopting: stopped.photo) else { return state = .idle }
        interactionController.resume(finishing: destination == .cell, centerVelocity: stopped.velocity)
        state = .released(toward: destination)
    }

    /// The interactive pop let go: where the photo now heads.
    private func noteRelease() {
        guard interactionController.isRunning, interactionController.isReleased else { return }
        state = .released(toward: interactionController.isFinishing ? .cell : .viewer)
    }
}
