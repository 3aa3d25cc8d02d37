import Glibc

/// Reads a text file the user named: a regular file, a pipe (`<(generate)`, `/dev/fd/N`) or standard
/// input (`-`), up to `maxBytes`. Failures are one line in plain words.
public enum InputFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Larger than any script; a device that never ends (`/dev/zero`) stops here.
    public static let maxBytes = 16 << 20

    public static func text(_ path: String) throws(Failure) -> String {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: errno == ENOENT ? "no such file" : OutputFile.reason(errno)) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: OutputFile.reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw Failure(description: "it is a folder")
        case S_IFREG, S_IFIFO, S_IFCHR, S_IFSOCK: break
        default: throw Failure(description: "not a regular file or a pipe")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count < maxBytes {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: OutputFile.reason(errno)) }
            if n == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<n]
        }
        throw Failure(description: "longer than \(maxBytes >> 20) MiB")
    }
}
