@preconcurrency import Glibc
import Foundation
import Threads

/// Debian's libjxl prints a line to stdio's stderr for every check a damaged file fails
/// ("./lib/jxl/dec_frame.cc:280: JXL_RETURN_IF_ERROR …"), which would bury the viewer's one line
/// naming the file. While any call made through `run` is under way, stdio's `stderr` is a null
/// stream. The viewer's own messages are written to the descriptor (FileHandle), not through stdio,
/// and still show; only what a library prints through stdio meanwhile is lost.
enum QuietStandardError {
    /// Calls under way, and the stream `stderr` was before the first of them.
    nonisolated(unsafe) private static let state = Locked<(callers: Int, saved: UnsafeMutablePointer<FILE>?)>((0, nil))
    nonisolated(unsafe) private static let null = fopen("/dev/null", "w")

    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.withLock { s in
            if s.callers == 0, let null {
                s.saved = stderr
                stderr = null
            }
            s.callers += 1
        }
        defer {
            state.withLock { s in
                s.callers -= 1
                if s.callers == 0, let saved = s.saved {
                    fflush(stderr)
                    stderr = saved
                }
            }
        }
        return try body()
    }
}
