import Cairo
import Logging

/// Cairo failures while the window draws: each kind said once (a frame that can't be drawn would
/// otherwise say so sixty times a second); the window goes on.
struct SaidOnce {
    private var said: Set<String> = []

    mutating func say(_ error: CairoError, logger: Logger) {
        if said.insert(error.description).inserted { logger.warning("\(error)") }
    }
}
