import Foundation
import Glibc
import Library
import SystemPackage

/// Writes a file the user named (a screenshot, a scene dump). A regular file (or a new one) is
/// written whole or not at all: to a temporary file beside it, then renamed over it. Anything else the
/// path already names is never replaced: a FIFO is written through (a pipe, `/dev/stdout` into one), a
/// device is refused (a disk named by mistake is never written, and a terminal takes no PNG), and so
/// are a folder and a socket. Failures are one line in plain words.
public enum OutputFile {
    /// Why a write failed, in the project's words.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw Failure(description: reason(errno)) }
            return try replace(path, with: bytes)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            // Through a symbolic link, the file it names is replaced, not the link.
            guard let resolved = realpath(path, nil) else { throw Failure(description: reason(errno)) }
            defer { free(resolved) }
            try replace(String(cString: resolved), with: bytes)
        case S_IFIFO:
            try writeThrough(path, bytes)
        case S_IFCHR, S_IFBLK:
            throw Failure(description: deviceRefusal)
        case S_IFDIR:
            throw Failure(description: "it is a folder")
        default:
            throw Failure(description: "not a regular file, a device or a pipe; nothing was written")
        }
    }

    /// A temporary file in the same folder, written and renamed over `path` (`AtomicFile`), with the
    /// permissions a new file would get (the umask applies).
    private static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        do {
            try AtomicFile.write(path, permissions: AtomicFile.newFilePermissions, bytes: bytes)
        } catch let error as Errno {
            throw Failure(description: reason(error.rawValue))
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// Why a device is not written.
    static let deviceRefusal = "it is a device, not a file; nothing is written to one"

    /// A FIFO: opened without waiting for a reader, written as it is.
    private static func writeThrough(_ path: String, _ bytes: [UInt8]) throws(Failure) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: errno == ENXIO ? "nothing is reading the pipe" : reason(errno)) }
        defer { close(fd) }
        // Writes may wait for the reader from here on.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        try writeAll(fd, bytes)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: reason(n < 0 ? errno : ENOSPC)) }
            written += n
        }
    }

    /// An errno in plain words.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such folder"
        case EACCES, EPERM: "permission denied"
        case ENOSPC: "no space left on the device"
        case ENOTDIR: "a part of the path is a file, not a folder"
        case EROFS: "the file system is read-only"
        case EISDIR: "it is a folder"
        case EDQUOT: "over the disk quota"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
