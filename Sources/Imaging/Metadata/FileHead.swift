import Glibc
import SystemPackage

/// The first bytes of a regular file, where the metadata a grid needs lives (EXIF, its thumbnail, the
/// capture date): read without blocking on a pipe or a device, and without decoding anything.
enum FileHead {
    /// The EXIF segment is at most 64 KiB and comes first (after a JFIF segment).
    static let length = 128 << 10

    /// Nil when the path is not a regular file that can be opened. `offset`: where to start (fewer bytes
    /// come back when the file ends sooner).
    static func read(_ path: FilePath, at offset: Int = 0, length: Int = FileHead.length) -> [UInt8]? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd, at: offset, length: length)
    }

    /// `read(_:at:length:)` of a file already open.
    static func read(fd: Int32, at offset: Int = 0, length: Int = FileHead.length) -> [UInt8]? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard offset >= 0 else { return nil }
        var head = [UInt8](repeating: 0, count: min(length, max(0, Int(info.st_size) - offset)))
        var filled = 0
        while filled < head.count {
            let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
            if n <= 0 { break }
            filled += n
        }
        return Array(head[..<filled])
    }
}
