@preconcurrency import Glibc
import Foundation

/// Debian's libjxl prints a line to stdio's stderr for every check a damaged file fails
/// ("./lib/jxl/dec_frame.cc:280: JXL_RETURN_IF_ERROR …"), which would bury the viewer's one line
/// naming the file. While any call made through `run` is under way, stdio's `stderr` is a null
/// stream. The viewer's own messages are written to the descriptor (FileHandle), not through stdio,
/// and still show; only what a library prints through stdio meanwhile is lost.
enum QuietStandardError {
    private static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var callers = 0
    nonisolated(unsafe) private static var saved: UnsafeMutablePointer<FILE>?
    nonisolated(unsafe) private static let null = fopen("/dev/null", "w")

    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.withLock {
            if callers == 0, let null {
                saved = stderr
                stderr = null
            }
            callers += 1
        }
        defer {
            lock.withLock {
                callers -= 1
                if callers == 0, let saved {
                    fflush(stderr)
                    stderr = saved
                }
            }
        }
        return try body()
    }
}
