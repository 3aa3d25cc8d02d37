import CMemoryFile
import Glibc
import SystemPackage

/// Reading a photo file's bytes without ever waiting on something that is not a file: it is opened
/// without blocking (a FIFO named `x.jpg` gives no wait), only a regular file is read, and no more
/// than `maxBytes` of it (a link to `/dev/zero` ends). A file written over while it is read is read
/// again, so a decode sees its old or its new bytes (or the part of them written so far), never a mix.
public enum PhotoFile {
    /// Larger than any photo this viewer would decode (its pixel limit is far below).
    static let maxBytes = 1 << 30
    /// Reads of a file that keeps changing before it is given up on (a mix of two versions is never decoded).
    static let attempts = 3

    public static func read(_ path: FilePath) throws(ImageDecodeError) -> [UInt8] {
        let fd = try open(path)
        defer { close(fd) }
        return try read(fd: fd)
    }

    /// The photo at `path` opened for reading (a descriptor the caller closes), without waiting on it.
    public static func open(_ path: FilePath) throws(ImageDecodeError) -> Int32 {
        let fd = path.withPlatformString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw errno == ENOENT ? .vanished : .unreadable(reason(errno)) }
        return fd
    }

    /// `read(_:)` of a file already open (a decoder process is given descriptors, never paths).
    public static func read(fd: Int32) throws(ImageDecodeError) -> [UInt8] {
        for _ in 0..<attempts {
            let before = try status(fd)
            guard before.st_mode & S_IFMT == S_IFREG else { throw .unreadable("not a regular file") }
            guard before.st_size <= maxBytes else { throw .unreadable("larger than \(maxBytes >> 20) MiB") }
            let bytes = try readAll(fd, expecting: Int(before.st_size))
            guard try !changed(since: before, fd) else { continue }
            // A file changed within the file system's coarse clock tick may change again within the
            // same tick, unseen by its time: one changed lately is read twice, a tick apart (a write
            // after the pause has a later time), and kept when alike. Read back to back, two reads
            // could meet two writes of one tick and see the same mix of them (seen under ASan).
            if !isRecent(before) || isSealedAgainstWriting(fd) { return bytes }
            usleep(Self.clockTick)
            if try readAll(fd, expecting: Int(before.st_size)) == bytes, try !changed(since: before, fd) { return bytes }
        }
        throw .unreadable("it kept changing while it was read")
    }

    /// The first `length` bytes of a regular file already open, from byte `start` (fewer when it is shorter).
    public static func head(fd: Int32, length: Int, from start: Int64 = 0) throws(ImageDecodeError) -> [UInt8] {
        let info = try status(fd)
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("not a regular file") }
        return try readAll(fd, expecting: max(0, min(length, Int(Int64(info.st_size) - start))), from: start)
    }

    private static func readAll(_ fd: Int32, expecting size: Int, from start: Int64 = 0) throws(ImageDecodeError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(start) + off_t(filled)) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(reason(errno)) }
            if n == 0 { break }   // it shrank while read: what is there
            filled += n
        }
        return filled == bytes.count ? bytes : Array(bytes[..<filled])
    }

    private static func status(_ fd: Int32) throws(ImageDecodeError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(reason(errno)) }
        return info
    }

    /// How long after a change a file's modification time may still not show the next change, s.
    static let recentChange = 2
    /// Longer than the kernel's coarse clock tick that file times are taken from (a jiffy: 4 ms at
    /// 250 Hz, 10 ms at 100 Hz), µs.
    static let clockTick: UInt32 = 12_000

    /// A memory file sealed against writing (bytes the viewer hands a decoder) cannot change under a read.
    private static func isSealedAgainstWriting(_ fd: Int32) -> Bool {
        photozoom_is_sealed_against_writing(fd) != 0
    }

    private static func isRecent(_ info: stat) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec - info.st_mtim.tv_sec < recentChange
    }

    /// Its size or modification time moved while it was read.
    private static func changed(since before: stat, _ fd: Int32) throws(ImageDecodeError) -> Bool {
        let after = try status(fd)
        return after.st_size != before.st_size || after.st_mtim.tv_sec != before.st_mtim.tv_sec
            || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec
    }

    /// An errno in the project's words.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "a link loop"
        case EISDIR: "it is a folder"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
