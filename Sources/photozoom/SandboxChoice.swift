import Foundation
import Imaging
import Logging
import Sandbox

/// Where this run decodes files: in a pool of confined decoder processes (this program in its hidden
/// mode), unless `--no-sandbox` says otherwise.
enum SandboxChoice {
    /// The pool, routed to; nil with `--no-sandbox`, said in one line.
    static func start(off: Bool, logger: Logger) -> DecoderPool? {
        if off {
            logger.warning("the decoder sandbox is off (--no-sandbox): photos are decoded in the viewer's own process")
            return nil
        }
        let seconds = ProcessInfo.processInfo.environment["PHOTOZOOM_DECODE_SECONDS"].flatMap(Int.init) ?? DecoderPool.baseSeconds
        let pool = DecoderPool(executable: "/proc/self/exe", logger: logger, baseSeconds: max(1, seconds))
        ImageDecoder.route(through: pool)
        return pool
    }
}
