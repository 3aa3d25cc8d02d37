import Foundation
import Glibc

/// `--trace FILE`: one JSON line per frame. The file is opened for writing as it is: a regular file is
/// truncated (or made), a pipe written through, never replaced; a device is refused. A write that fails (a full
/// disk) is said once, and the run goes on without the trace.
public final class TraceFile {
    private let fd: Int32
    private let path: String
    private var failed = false

    public init(path: String) throws {
        self.path = path
        // Not waiting for a FIFO's reader to open; writes may wait for it afterwards. Truncated only once
        // it is known to be a regular file: a device is refused untouched.
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw OutputFile.Failure(description: "cannot write the trace \(path): \(errno == ENXIO ? "nothing is reading the pipe" : OutputFile.reason(errno))")
        }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind != S_IFCHR && kind != S_IFBLK else {
            close(fd)
            throw OutputFile.Failure(description: "cannot write the trace \(path): \(OutputFile.deviceRefusal)")
        }
        if kind == S_IFREG { _ = ftruncate(fd, 0) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes one frame's line (a `MotionTraceRecord`'s JSON).
    public func write(line: String) {
        guard !failed else { return }
        let line = Array((line + "\n").utf8)
        var written = 0
        while written < line.count {
            let n = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failed = true
                let reason = OutputFile.reason(n < 0 ? errno : ENOSPC)
                FileHandle.standardError.write(Data("photozoom: error: cannot write the trace \(path): \(reason); going on without it\n".utf8))
                return
            }
            written += n
        }
    }
}
