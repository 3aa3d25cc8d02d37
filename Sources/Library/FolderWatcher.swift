import Foundation
import Glibc
import SystemPackage

/// Watches the folders that hold the photos (inotify) and says which files in them were written: saved in
/// place (`IN_CLOSE_WRITE`) or renamed over (`IN_MOVED_TO`, as editors save atomically). A burst of events
/// (an editor's temporary files, a copy of many photos) is reported once, after a quiet moment, through
/// `wake`; the loop then takes the paths.
public final class FolderWatcher: Sendable {
    /// A burst ends once no event came for this long, s…
    static let quietTime = 0.1
    /// …or this long after it began, s.
    static let longestBurst = 1.0

    private let shared: Shared

    /// Watches `folders`; nil (with the reason given to `warn`, once) when inotify cannot be had at all.
    /// A folder that cannot be watched (the kernel's watch table full: `fs.inotify.max_user_watches`) is
    /// said once and left unwatched.
    public init?(folders: Set<FilePath>, wake: @escaping @Sendable () -> Void, warn: (String) -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            warn("changes to the photos are not followed: inotify: \(String(cString: strerror(errno)))")
            return nil
        }
        var stop: [Int32] = [0, 0]
        guard pipe(&stop) == 0 else {
            close(fd)
            return nil
        }
        for end in stop { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var folderOf: [Int32: FilePath] = [:]
        var unwatched = 0, firstError: Int32 = 0
        for folder in folders {
            let wd = folder.withPlatformString {
                inotify_add_watch(fd, $0, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) | UInt32(bitPattern: IN_ONLYDIR))
            }
            if wd >= 0 {
                folderOf[wd] = folder
            } else {
                if unwatched == 0 { firstError = errno }
                unwatched += 1
            }
        }
        if unwatched > 0 {
            let limit = firstError == ENOSPC ? " (the watch table is full: fs.inotify.max_user_watches)" : ""
            warn("changes in \(unwatched) of \(folders.count) folders are not followed: \(String(cString: strerror(firstError)))\(limit)")
        }
        shared = Shared(fd: fd, stop: stop, folderOf: folderOf, wake: wake)
        let reader = Thread { [shared] in shared.read() }
        reader.name = "photozoom folder watcher"
        reader.start()
    }

    deinit {
        var byte: UInt8 = 1
        _ = write(shared.stop[1], &byte, 1)   // the reader closes the descriptors as it ends
    }

    /// The files written since the last call.
    public func takeWritten() -> Set<FilePath> {
        shared.lock.withLock {
            defer { shared.written = [] }
            return shared.written
        }
    }

    private final class Shared: @unchecked Sendable {
        let fd: Int32
        let stop: [Int32]
        let folderOf: [Int32: FilePath]
        let wake: @Sendable () -> Void
        let lock = NSLock()
        /// Guarded by `lock`.
        var written: Set<FilePath> = []

        init(fd: Int32, stop: [Int32], folderOf: [Int32: FilePath], wake: @escaping @Sendable () -> Void) {
            self.fd = fd
            self.stop = stop
            self.folderOf = folderOf
            self.wake = wake
        }

        /// The reader thread: waits for events, gathers a burst, hands it over; ends when `stop` is written.
        func read() {
            defer { [fd, stop[0], stop[1]].forEach { close($0) } }
            var burst: Set<FilePath> = []
            var began = 0.0
            while true {
                // Waiting for a burst's first event: as long as it takes; within one: until it goes quiet.
                let timeout = burst.isEmpty ? -1 : Int32(FolderWatcher.quietTime * 1000)
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop[0], events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, timeout)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 || fds[1].revents != 0 { return }
                if ready > 0 {
                    if burst.isEmpty { began = ProcessInfo.processInfo.systemUptime }
                    burst.formUnion(drain())
                }
                let now = ProcessInfo.processInfo.systemUptime
                if !burst.isEmpty, ready == 0 || now - began >= FolderWatcher.longestBurst {
                    lock.withLock { written.formUnion(burst) }
                    burst = []
                    wake()
                }
            }
        }

        /// The paths the waiting events name.
        private func drain() -> Set<FilePath> {
            var paths: Set<FilePath> = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return paths }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (wd, length) = buffer.withUnsafeBytes { raw in
                        (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                         Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                    }
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let name = buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }
                    if let folder = folderOf[wd], !name.isEmpty,
                       let component = FilePath.Component(platformString: name.map { CChar(bitPattern: $0) } + [0]) {
                        paths.insert(folder.appending(component))
                    }
                    offset = nameStart + length
                }
            }
        }
    }
}
