import Glibc

/// Every file opened in some folders while it watches, by any process: inotify's `IN_OPEN`, which the kernel
/// reports for each open of a file in a watched folder (the folders' own listings are left out). What a test of
/// "this launch reads no photo" counts.
public final class FileOpenWatch {
    private let fd: Int32
    private var folders: [Int32: String] = [:]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(folders paths: [String]) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        for path in paths {
            let watch = inotify_add_watch(fd, path, UInt32(IN_OPEN))
            guard watch >= 0 else { throw Failure(description: "inotify_add_watch \(path): \(String(cString: strerror(errno)))") }
            folders[watch] = path
        }
    }

    deinit { close(fd) }

    /// The files opened since the watch began (or since the last call), each path once, in the order first opened.
    public func opened() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var at = 0
            while at + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: inotify_event.self) }
                let nameStart = at + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }, as: UTF8.self)
                if event.mask & UInt32(IN_ISDIR) == 0, !name.isEmpty, let folder = folders[event.wd] {
                    let path = folder + "/" + name
                    if !names.contains(path) { names.append(path) }
                }
                at = nameStart + Int(event.len)
            }
        }
    }
}
