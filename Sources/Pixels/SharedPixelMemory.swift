import CMemoryFile
import Glibc
import Synchronization

/// Pixels in memory files (`memfd`), the way a decoder process hands a picture to the viewer without
/// a copy: the decoder draws into a file of its own, seals it against any further change, and sends
/// its descriptor; the viewer maps it.
public enum SharedPixelMemory {
    private static let on = Atomic<Bool>(false)

    /// Whether new images are made in memory files (set once, in a decoder process).
    public static var isOn: Bool { on.load(ordering: .relaxed) }

    /// From now on, new images are made in memory files.
    public static func turnOn() { on.store(true, ordering: .relaxed) }

    /// Seals a picture's file as the viewer asks before it maps one: it can never shrink (which would end
    /// the viewer with SIGBUS where it reads a page gone), grow, be mapped for writing again, or have its
    /// seals changed. False when the kernel refuses.
    public static func seal(_ fd: Int32) -> Bool { photozoom_seal_picture(fd) == 0 }

    /// A new memory file of `byteCount` zeros, mapped for writing; nil when the kernel refuses one.
    static func make(byteCount: Int) -> (Int32, UnsafeMutableRawPointer)? {
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
