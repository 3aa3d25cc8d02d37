import Glibc
import SystemPackage

/// Whether a photo's file holds frames that play, read from its first bytes without decoding: when the library
/// indexes it (`PhotoFacts.moving`, kept in the index so that a launch opens no file for it), and for a grid cell
/// whose thumbnail came from the cache of a photo the index does not know.
public enum AnimationProbe {
    /// Enough for a GIF's first frame of any usual size; a larger first frame leaves it unsaid.
    static let maxBytes = 256 << 10

    /// The photo's format when it moves; nil for a still one, or a file that can't be read.
    public static func animatedFormat(_ path: FilePath) -> ImageFormat? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        var filled = read(fd, &head, count: head.count)
        guard let format = ImageFormat(sniffing: head[..<filled]) else { return nil }
        if format == .gif {
            head += [UInt8](repeating: 0, count: maxBytes - head.count)
            filled += read(fd, &head, from: filled, count: maxBytes - filled)
        }
        return animatedFormat(head: head[..<filled], format: format)
    }

    /// The same of a file whose first bytes are `head` (of format `format`), when they tell: a GIF's first frame
    /// whole, any other format's first 4 KiB.
    static func animatedFormat(head: ArraySlice<UInt8>, format: ImageFormat) -> ImageFormat? {
        if format.capabilities.contains(.clip) { return format }
        return format.animation?.moves(head) == true ? format : nil
    }

    private static func read(_ fd: Int32, _ buffer: inout [UInt8], from start: Int = 0, count: Int) -> Int {
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + start + filled, count - filled) }
            if n <= 0 { break }
            filled += n
        }
        return filled
    }
}
