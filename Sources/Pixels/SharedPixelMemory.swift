import CMemoryFile
import Glibc

/// Pixels in memory files (`memfd`), the way a decoder process hands a picture to the viewer: the decoder
/// writes it into a file of its own, seals it against any further change, and sends its descriptor; the
/// viewer maps it (no copy on its side, and none through a pipe).
public enum SharedPixelMemory {
    /// Seals a picture's file as the viewer asks before it maps one: it can never shrink (which would end
    /// the viewer with SIGBUS where it reads a page gone), grow, be mapped for writing again, or have its
    /// seals changed. False when the kernel refuses.
    public static func seal(_ fd: Int32) -> Bool { photozoom_seal_picture(fd) == 0 }

    /// A new memory file holding `byteCount` bytes from `bytes`, written (not mapped: its pages are filled as they
    /// are made, never zeroed first); -1 when the kernel refuses.
    public static func file(holding bytes: UnsafeRawPointer, byteCount: Int) -> Int32 {
        let fd = photozoom_memory_file("photozoom-pixels")
        guard fd >= 0 else { return -1 }
        var written = 0
        while written < byteCount {
            let n = write(fd, bytes + written, byteCount - written)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                return -1
            }
            written += n
        }
        return fd
    }

    /// A new memory file of `byteCount` zero bytes, and its mapping for writing; nil when the kernel refuses.
    static func mappedFile(byteCount: Int) -> (fd: Int32, bytes: UnsafeMutableRawPointer)? {
        let fd = photozoom_memory_file("photozoom-pixels")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(byteCount)) == 0,
              let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0), mapped != MAP_FAILED else {
            close(fd)
            return nil
        }
        return (fd, mapped)
    }

    /// `fd` mapped copy-on-write when it is sealed and holds at least `byteCount` bytes.
    static func map(_ fd: Int32, byteCount: Int) -> UnsafeMutableRawPointer? {
        var info = stat()
        guard photozoom_is_sealed_picture(fd) != 0, fstat(fd, &info) == 0, Int(info.st_size) >= byteCount,
              let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, 0),
              mapped != MAP_FAILED else { return nil }
        return mapped
    }
}
