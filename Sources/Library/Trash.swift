import CSandbox
import Foundation
import Glibc
import SystemPackage

/// The freedesktop Trash (the Trash specification 1.0), where a photo deleted from the viewer goes: it is
/// moved, never unlinked. A file on the home's file system goes to `$XDG_DATA_HOME/Trash`; one on another
/// goes to that file system's `$topdir/.Trash/$uid` (where an administrator made a sticky `.Trash`), else
/// `$topdir/.Trash-$uid`. Its `.trashinfo` (where it was, when it went) is written first, so that a file
/// manager can put it back; then the file is renamed into the trash's `files` (one file system: atomic).
public struct Trash: Sendable {
    /// A file in the trash: where it was, and where it and its `.trashinfo` are.
    public struct Item: Sendable, Equatable {
        public let original: FilePath
        public let file: FilePath
        public let info: FilePath
    }

    /// Why a file could not be moved to the trash, or back; it stays where it is.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// `$XDG_DATA_HOME/Trash`.
    let home: FilePath
    let uid: uid_t
    /// Where file systems are mounted (the top folders). Tests make a folder look like another file system with it.
    let mountPoints: @Sendable () -> [FilePath]

    /// The trash of `environment`'s home (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`); nil without either.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment,
                 mountPoints: @escaping @Sendable () -> [FilePath] = MountPoints.read) {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? FilePath($0) : nil }
            ?? environment["HOME"].map { FilePath($0).appending(".local/share") }
        guard let data else { return nil }
        home = data.appending("Trash")
        uid = getuid()
        self.mountPoints = mountPoints
    }

    /// Moves the file at `path` (absolute) to the trash.
    public func trash(_ given: FilePath) throws(Failure) -> Item {
        // The `.trashinfo` says where it was absolutely: the viewer may have been given a relative path.
        let absolute = given.isAbsolute ? given : FilePath(FileManager.default.currentDirectoryPath).pushing(given)
        guard Self.status(absolute) != nil else { throw failure(absolute, "it is not there (\(Errno(rawValue: errno)))") }
        // Its folder as the file system has it: through a link (`~/Pictures` → another disk), the trash is that
        // disk's, at its top, where a file manager looks.
        guard let name = absolute.lastComponent, let folder = Self.realFolder(absolute.removingLastComponent()) else {
            throw failure(absolute, "its folder cannot be read")
        }
        let path = folder.appending(name)
        let (base, top) = try trashFolder(for: folder, of: path)
        for sub in ["files", "info"] {
            guard makeFolder(base.appending(sub)) else { throw failure(path, "\(base.appending(sub)) cannot be made (\(Errno(rawValue: errno)))") }
        }
        let (file, infoFile) = try reserveName(name, in: base, for: path, below: top)
        // Never over a file that came into the trash after the name was found free.
        guard Self.renameNoReplace(path, file) == 0 else {
            let reason = Errno(rawValue: errno)
            _ = infoFile.withPlatformString(unlink)
            throw failure(path, reason == .permissionDenied || reason == .readOnlyFileSystem
                          ? "its folder is not writable (\(reason))"
                          : reason == .fileExists ? "another file took its name in the trash meanwhile; try again" : "\(reason)")
        }
        return Item(original: path, file: file, info: infoFile)
    }

    /// Puts `item` back where it was, and its `.trashinfo` goes.
    public func restore(_ item: Item) throws(Failure) {
        // Checked by the move itself: a file made at the place between a look and the move is never overwritten.
        guard Self.renameNoReplace(item.file, item.original) == 0 else {
            if errno == EEXIST { throw Failure(description: "\(item.original): cannot be put back: another file of that name is there now") }
            throw Failure(description: "\(item.original): cannot be put back from the trash (\(Errno(rawValue: errno)))")
        }
        _ = item.info.withPlatformString(unlink)
    }

    /// Renames `from` to `to` unless `to` is there (the names as bytes); 0, or -1 with `errno`.
    private static func renameNoReplace(_ from: FilePath, _ to: FilePath) -> Int32 {
        from.withPlatformString { from in to.withPlatformString { photozoom_rename_no_replace(from, $0) } }
    }

    /// `lstat` of `path` (its bytes); nil with `errno` when it is not there.
    private static func status(_ path: FilePath) -> stat? {
        var info = stat()
        return path.withPlatformString { lstat($0, &info) } == 0 ? info : nil
    }

    /// `path` as written from `top` (with no leading slash).
    static func relative(_ path: FilePath, to top: FilePath) -> FilePath {
        var relative = path
        return relative.removePrefix(top) ? relative : path
    }

    /// `folder` with its links resolved; nil when it can't be.
    static func realFolder(_ folder: FilePath) -> FilePath? {
        guard let resolved = folder.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }

    /// The trash for a file in `folder`: the home's when the home's data folder is on that mount, else the
    /// mount's own at its top folder; and that top folder (nil for the home's). A bind mount is a mount of its
    /// own here, as for `rename`, though its device is its source's.
    private func trashFolder(for folder: FilePath, of path: FilePath) throws(Failure) -> (FilePath, FilePath?) {
        let mounts = mountPoints()
        let top = MountPoints.top(of: folder, among: mounts)
        let homeFolder = Self.existing(home)
        if MountPoints.top(of: Self.realFolder(homeFolder) ?? homeFolder, among: mounts) == top { return (home, nil) }
        let administered = top.appending(".Trash")
        if let info = Self.status(administered), info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_ISVTX != 0 {
            let mine = administered.appending("\(uid)")
            if makeFolder(mine), let info = Self.status(mine), info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid { return (mine, top) }
        }
        let own = top.appending(".Trash-\(uid)")
        guard makeFolder(own), let info = Self.status(own), info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid else {
            throw failure(path, "no trash can be made on its file system (\(own): \(Errno(rawValue: errno)))")
        }
        return (own, top)
    }

    /// A name free in both `files` and `info` (`name`, else `name.2`, `name.3`, … before the extension),
    /// its `.trashinfo` written (created exclusively: two viewers never take one name).
    /// Under a file system's own trash (`top`), the Path is relative to its top folder, as the specification asks
    /// (the disk can be mounted elsewhere later).
    private func reserveName(_ name: FilePath.Component, in base: FilePath, for path: FilePath,
                             below top: FilePath?) throws(Failure) -> (FilePath, FilePath) {
        // The name's bytes, split before its extension ("IMG.jpg" → "IMG", ".jpg"; ".hidden" has none).
        let bytes = FilePath(root: nil, [name]).bytes
        let dot = bytes.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? $0 : nil } ?? bytes.endIndex
        let contents = Self.info(for: top.map { Self.relative(path, to: $0) } ?? path, deletedAt: Date())
        for n in 1...10_000 {
            let candidate = n == 1 ? bytes : bytes[..<dot] + Array(".\(n)".utf8) + bytes[dot...]
            let file = FilePath(bytes: base.appending("files").bytes + [UInt8(ascii: "/")] + candidate)
            let infoFile = FilePath(bytes: base.appending("info").bytes + [UInt8(ascii: "/")] + candidate + Array(".trashinfo".utf8))
            if Self.status(file) != nil { continue }
            let fd = infoFile.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            if fd < 0 {
                if errno == EEXIST { continue }
                throw failure(path, "\(infoFile) cannot be written (\(Errno(rawValue: errno)))")
            }
            let bytes = Array(contents.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == bytes.count, synced else {
                _ = infoFile.withPlatformString(unlink)
                throw failure(path, "\(infoFile) cannot be written")
            }
            return (file, infoFile)
        }
        throw failure(path, "the trash has no free name for it")
    }

    /// A `.trashinfo`: the file's absolute path, escaped as in a URL, and the local time it was deleted.
    static func info(for path: FilePath, deletedAt date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return "[Trash Info]\nPath=\(escaped(path.bytes))\nDeletionDate=\(formatter.string(from: date))\n"
    }

    /// Bytes other than letters, digits, `-._~/` as `%XX` (RFC 2396, as the specification asks).
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `path`, or its nearest folder that exists (the home's trash may not be made yet).
    private static func existing(_ path: FilePath) -> FilePath {
        var at = path
        var info = stat()
        while !at.isTop, at.withPlatformString({ stat($0, &info) }) != 0 { at = at.removingLastComponent() }
        return at
    }

    /// `folder` and the folders above it made (mode 0700) where missing; whether it is there now.
    private func makeFolder(_ folder: FilePath) -> Bool {
        var info = stat()
        if folder.withPlatformString({ stat($0, &info) }) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if !folder.isTop, !makeFolder(folder.removingLastComponent()) { return false }
        return folder.withPlatformString({ mkdir($0, 0o700) }) == 0 || errno == EEXIST
    }

    private func failure(_ path: FilePath, _ reason: String) -> Failure {
        Failure(description: "\(path): cannot be moved to the trash: \(reason); it stays where it is")
    }
}

private extension FilePath {
    /// `/` (or an empty path): nothing above it.
    var isTop: Bool { removingLastComponent() == self }
}
