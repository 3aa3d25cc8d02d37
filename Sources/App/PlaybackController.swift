import Geometry
import Logging

/// The keys of the open clip or animation (space, `,` and `.`, `m`, `l`), and what its playing has to say: each
/// problem once (a clip cut short; no sound server, once a run).
final class PlaybackController {
    private var said: Set<String> = []
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// `action` on `navigator`'s open photo at clock time `now`: false when it is not a playback key there (space on a
    /// photo that does not move, `.` on one not paused: the key does what it does elsewhere).
    func key(_ action: KeyBinding.Action, on navigator: PhotoNavigator, at now: Double) -> Bool {
        switch action {
        case .playPause:
            guard navigator.togglePlayback(at: now) else { return false }
            logger.debug(navigator.animation?.isPaused == true ? "animation paused" : "animation playing")
        case .favorite: return navigator.stepFrame(forward: true)   // `.` on a paused clip: a picture on
        case .stepBack: _ = navigator.stepFrame(forward: false)
        case .mute:
            navigator.isMuted.toggle()
            logger.info(navigator.isMuted ? "clips muted" : "clips play their sound")
        case .live:
            navigator.playsLiveOnLanding.toggle()
            logger.info(navigator.playsLiveOnLanding ? "Live Photos play as they land" : "Live Photos stay still as they land")
        default: return false
        }
        return true
    }

    /// The open photo's frame due at `now` put up (`PhotoNavigator.advanceAnimation`), and what its playing has to say.
    func advance(_ navigator: PhotoNavigator, to now: Double) -> Rect? {
        defer { sayProblems(of: navigator) }
        return navigator.advanceAnimation(to: now)
    }

    /// Why the open photo's frames or sound stopped short, each said once, with the photo's name.
    private func sayProblems(of navigator: PhotoNavigator) {
        guard let player = navigator.animation, navigator.photos.indices.contains(player.index) else { return }
        let name = navigator.photos[player.index].name
        if let failure = player.takeFailure() { logger.warning("\(name): \(failure)") }
        if let problem = player.sound?.takeProblem(), said.insert(problem).inserted { logger.warning("\(name): \(problem)") }
    }
}
