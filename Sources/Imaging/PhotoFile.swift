import Glibc

/// Reading a photo file's bytes without ever waiting on something that is not a file: it is opened
/// without blocking (a FIFO named `x.jpg` gives no wait), only a regular file is read, and no more
/// than `maxBytes` of it (a link to `/dev/zero` ends).
enum PhotoFile {
    /// Larger than any photo this viewer would decode (its pixel limit is far below).
    static let maxBytes = 1 << 30

    static func read(_ path: String) throws(ImageDecodeError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(reason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(reason(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("not a regular file") }
        guard info.st_size <= maxBytes else { throw .unreadable("larger than \(maxBytes >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(reason(errno)) }
            if n == 0 { break }   // it shrank while read: what is there
            filled += n
        }
        return filled == bytes.count ? bytes : Array(bytes[..<filled])
    }

    /// An errno in the project's words.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "a link loop"
        case EISDIR: "it is a folder"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
