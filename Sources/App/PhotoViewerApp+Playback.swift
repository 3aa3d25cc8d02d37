import Imaging
import Library

/// The open clip's or animation's keys, and what its playing has to say.
extension PhotoViewerApp {
    /// Why the open photo's frames or sound stopped short, each said once (a clip cut short; no sound server, said
    /// once a run).
    func sayPlaybackProblems(of player: AnimationPlayer) {
        let name = photos[player.index].name
        if let failure = player.takeFailure() { logger.warning("\(name): \(failure)") }
        if let problem = player.sound?.takeProblem(), saidSoundProblems.insert(problem).inserted {
            logger.warning("\(name): \(problem)")
        }
    }
}
