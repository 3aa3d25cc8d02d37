import Foundation
import Glibc
import SystemPackage
import Threads

/// Watches the folders of the photos' trees (inotify) and says which paths in them changed: files written
/// (saved in place, `IN_CLOSE_WRITE`), moved in or out (`IN_MOVED_TO`/`FROM`: renamed, or saved as editors
/// save, renamed over the old file), or deleted; folders made, moved or deleted. A folder made or moved in
/// is watched too, and the files already in it are reported (a camera import makes a folder, then fills
/// it). A burst of events (an editor's temporary files, a copy of many photos) is reported once, after a
/// quiet moment, through `wake`; the loop then takes the changes, and looks at the paths for what they are
/// now. Folders the kernel will not watch (its watch table full) are listed again every `rescanInterval`
/// instead, and what changed in them is reported the same way.
public final class FolderWatcher: Sendable {
    /// What a burst of events touched.
    public struct Changes: Sendable, Equatable {
        /// Every file or folder an event named.
        public var touched: Set<FilePath> = []
        /// Files and folders renamed within the watched folders: old path → new path.
        public var renamed: [FilePath: FilePath] = [:]
        /// The touched paths that were folders (made, moved, deleted): the photos in them moved or went.
        public var folders: Set<FilePath> = []
        /// The touched photos as their first bytes say (when taken, with what), read on the watcher's thread
        /// (a camera's import of 500 is 60 MB of first bytes: not the frame loop's to read).
        public var read: [FilePath: Photo] = [:]
        public var isEmpty: Bool { touched.isEmpty }

        public init(touched: Set<FilePath> = [], renamed: [FilePath: FilePath] = [:], folders: Set<FilePath> = []) {
            self.touched = touched
            self.renamed = renamed
            self.folders = folders
        }

        /// These changes, then `later` ones.
        public mutating func add(_ later: Changes) {
            touched.formUnion(later.touched)
            renamed.merge(later.renamed) { $1 }
            folders.formUnion(later.folders)
            read.merge(later.read) { $1 }
        }
    }

    /// A burst ends once no event came for this long, s…
    static let quietTime = 0.1
    /// …or this long after it began, s.
    static let longestBurst = 1.0
    /// Folders that cannot be watched are listed again this often, s.
    static let rescanInterval = 2.0
    /// What a folder's watch hears.
    static let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE) | UInt32(bitPattern: IN_ONLYDIR)

    private let shared: Shared

    /// Watches `folders`; nil (with the reason given to `warn`, once) when inotify cannot be had at all.
    /// Folders that cannot be watched (the kernel's watch table full: `fs.inotify.max_user_watches`) are
    /// said in one line and listed again now and then. `watchLimit`: the most watches to take (the kernel's
    /// table as if it held no more: what a test of a full table sets).
    public init?(folders: Set<FilePath>, wake: @escaping @Sendable () -> Void, warn: (String) -> Void, watchLimit: Int = .max) {
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
        shared = Shared(fd: fd, stop: stop, wake: wake, watchLimit: watchLimit)
        var unwatched = 0, firstError: Int32 = 0
        for folder in folders.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            if let error = shared.watch(folder) {
                if unwatched == 0 { firstError = error }
                unwatched += 1
            }
        }
        if unwatched > 0 {
            let full = firstError == ENOSPC ? " (the watch table is full: fs.inotify.max_user_watches); they are looked for every \(Int(Self.rescanInterval)) s" : ""
            warn("changes in \(unwatched) of \(folders.count) folders are not followed as they happen: \(String(cString: strerror(firstError)))\(full)")
        }
        Worker.start(named: "photozoom folder watcher") { [shared] in shared.read() }
    }

    deinit {
        var byte: UInt8 = 1
        _ = write(shared.stop[1], &byte, 1)   // the reader closes the descriptors as it ends
    }

    /// The changes since the last call.
    public func takeChanges() -> Changes {
        shared.changes.withLock { changes in
            defer { changes = Changes() }
            return changes
        }
    }

    // Unchecked: the inotify descriptor's watches are set up before the reader starts, then are the reader's alone.
    private final class Shared: @unchecked Sendable {
        let fd: Int32
        let stop: [Int32]
        let wake: @Sendable () -> Void
        /// The changes the reader found and the app has not taken yet.
        let changes = Locked(Changes())
        /// The watched folders, by watch; set up before the reader starts, then the reader's alone (as are
        /// the two below).
        private var folderOf: [Int32: FilePath] = [:]
        /// The folders that could not be watched, as last listed.
        private var unwatched: [FilePath: FolderSnapshot] = [:]
        private let watchLimit: Int

        init(fd: Int32, stop: [Int32], wake: @escaping @Sendable () -> Void, watchLimit: Int) {
            self.fd = fd
            self.stop = stop
            self.wake = wake
            self.watchLimit = watchLimit
        }

        /// Watches `folder`: nil, or the error (`errno`) that stopped it (the folder is then listed again
        /// now and then).
        func watch(_ folder: FilePath) -> Int32? {
            let wd = folderOf.count < watchLimit ? folder.withPlatformString { inotify_add_watch(fd, $0, FolderWatcher.events) } : -1
            guard wd >= 0 else {
                let error = folderOf.count < watchLimit ? errno : ENOSPC
                if error == ENOSPC { unwatched[folder] = FolderSnapshot(folder) }
                return error
            }
            folderOf[wd] = folder
            return nil
        }

        /// The folders that cannot be watched, listed again: what changed in them, and in folders made in them.
        private func rescan(into burst: inout Changes) {
            for (folder, before) in unwatched {
                let now = FolderSnapshot(folder)
                unwatched[folder] = now
                for path in now.changed(since: before) {
                    burst.touched.insert(path)
                    if now.subfolders.contains(path), path.lastComponent?.string.hasPrefix(".") == false {
                        arrived(path, into: &burst)
                    } else if before.subfolders.contains(path) {
                        burst.folders.insert(path)
                    }
                }
            }
        }

        /// A folder made or moved in: watched, with the folders in it, and every path in it reported
        /// (they may have come before the watch). Hidden ones are left, as a tree's walk leaves them.
        private func arrived(_ folder: FilePath, into burst: inout Changes) {
            burst.folders.insert(folder)
            let watched = watch(folder) == nil || unwatched[folder] != nil
            guard watched, let names = FolderListing.names(in: folder) else { return }
            for name in names where !name.string.hasPrefix(".") {
                let path = folder.appending(name)
                burst.touched.insert(path)
                var info = stat()
                if path.withPlatformString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR { arrived(path, into: &burst) }
            }
        }

        /// The reader thread: waits for events, gathers a burst, hands it over; ends when `stop` is written.
        func read() {
            defer { [fd, stop[0], stop[1]].forEach { close($0) } }
            var burst = Changes()
            /// Moves out whose move in has not been read yet, by cookie.
            var movedOut: [UInt32: FilePath] = [:]
            var began = 0.0
            while true {
                // Waiting for a burst's first event: as long as it takes (or until the unwatched folders are
                // due to be listed again); within one: until it goes quiet.
                let timeout = !burst.isEmpty ? Int32(FolderWatcher.quietTime * 1000)
                    : unwatched.isEmpty ? -1 : Int32(FolderWatcher.rescanInterval * 1000)
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop[0], events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, timeout)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 || fds[1].revents != 0 { return }
                if ready == 0, burst.isEmpty {
                    rescan(into: &burst)
                    if burst.isEmpty { continue }
                    began = ProcessInfo.processInfo.systemUptime
                }
                if ready > 0 {
                    if burst.isEmpty { began = ProcessInfo.processInfo.systemUptime }
                    for event in drain() {
                        let isFolder = event.mask & UInt32(bitPattern: IN_ISDIR) != 0
                        // A file made is reported once written (`IN_CLOSE_WRITE`), not half-written.
                        if event.mask & UInt32(IN_CREATE) != 0, !isFolder { continue }
                        burst.touched.insert(event.path)
                        if event.mask & UInt32(IN_MOVED_FROM) != 0 { movedOut[event.cookie] = event.path }
                        if event.mask & UInt32(IN_MOVED_TO) != 0, let from = movedOut.removeValue(forKey: event.cookie) {
                            burst.renamed[from] = event.path
                        }
                        if isFolder { burst.folders.insert(event.path) }
                        if isFolder, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, event.path.lastComponent?.string.hasPrefix(".") == false {
                            arrived(event.path, into: &burst)
                        }
                    }
                }
                let now = ProcessInfo.processInfo.systemUptime
                if !burst.isEmpty, ready == 0 || now - began >= FolderWatcher.longestBurst {
                    for path in burst.touched where !burst.folders.contains(path) && !PhotoListUpdate.isHidden(path)
                        && path.extension.map({ PhotoLibrary.photoExtensions.contains($0.lowercased()) }) == true
                        && PhotoLibrary.isFile(path) {
                        burst.read[path] = PhotoListUpdate.read(path)
                    }
                    changes.withLock { $0.add(burst) }
                    burst = Changes()
                    movedOut = [:]
                    wake()
                }
            }
        }

        /// The waiting events, in order.
        private func drain() -> [(path: FilePath, mask: UInt32, cookie: UInt32)] {
            var events: [(path: FilePath, mask: UInt32, cookie: UInt32)] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return events }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
                    let (wd, mask, cookie, length) = buffer.withUnsafeBytes { raw in
                        (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                         raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                         raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self),
                         Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                    }
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let name = buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }
                    if let folder = folderOf[wd], !name.isEmpty,
                       let component = FilePath.Component(platformString: name.map { CChar(bitPattern: $0) } + [0]) {
                        events.append((folder.appending(component), mask, cookie))
                    }
                    offset = nameStart + length
                }
            }
        }
    }
}
