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
    /// The file system a path is on (its device); nil when it cannot be looked at. Tests make a folder
    /// look like another file system with it.
    let device: @Sendable (FilePath) -> UInt64?

    /// The trash of `environment`'s home (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`); nil without either.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment,
                 device: @escaping @Sendable (FilePath) -> UInt64? = Trash.device) {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? FilePath($0) : nil }
            ?? environment["HOME"].map { FilePath($0).appending(".local/share") }
        guard let data else { return nil }
        home = data.appending("Trash")
        uid = getuid()
        self.device = device
    }

    /// The device `path` is on (`stat`'s `st_dev`).
    public static let device: @Sendable (FilePath) -> UInt64? = { path in
        var info = stat()
        return stat(path.string, &info) == 0 ? UInt64(info.st_dev) : nil
    }

    /// Moves the file at `path` (absolute) to the trash.
    public func trash(_ given: FilePath) throws(Failure) -> Item {
        // The `.trashinfo` says where it was absolutely: the viewer may have been given a relative path.
        let absolute = given.isAbsolute ? given : FilePath(FileManager.default.currentDirectoryPath).pushing(given)
        var info = stat()
        guard lstat(absolute.string, &info) == 0 else { throw failure(absolute, "it is not there (\(Errno(rawValue: errno)))") }
        // Its folder as the file system has it: through a link (`~/Pictures` → another disk), the trash is that
        // disk's, at its top, where a file manager looks.
        guard let name = absolute.lastComponent, let folder = Self.realFolder(absolute.removingLastComponent()),
              let on = device(folder) else { throw failure(absolute, "its folder cannot be read") }
        let path = folder.appending(name)
        let (base, top) = try trashFolder(for: folder, on: on, of: path)
        for sub in ["files", "info"] {
            guard makeFolder(base.appending(sub)) else { throw failure(path, "\(base.appending(sub)) cannot be made (\(Errno(rawValue: errno)))") }
        }
        let (file, infoFile) = try reserveName(name, in: base, for: path, below: top)
        // Never over a file that came into the trash after the name was found free.
        guard photozoom_rename_no_replace(path.string, file.string) == 0 else {
            let reason = Errno(rawValue: errno)
            unlink(infoFile.string)
            throw failure(path, reason == .permissionDenied || reason == .readOnlyFileSystem
                          ? "its folder is not writable (\(reason))"
                          : reason == .fileExists ? "another file took its name in the trash meanwhile; try again" : "\(reason)")
        }
        return Item(original: path, file: file, info: infoFile)
    }

    /// Puts `item` back where it was, and its `.trashinfo` goes.
    public func restore(_ item: Item) throws(Failure) {
        // Checked by the move itself: a file made at the place between a look and the move is never overwritten.
        guard photozoom_rename_no_replace(item.file.string, item.original.string) == 0 else {
            if errno == EEXIST { throw Failure(description: "\(item.original): cannot be put back: another file of that name is there now") }
            throw Failure(description: "\(item.original): cannot be put back from the trash (\(Errno(rawValue: errno)))")
        }
        unlink(item.info.string)
    }

    /// `path` as written from `top` (with no leading slash).
    static func relative(_ path: FilePath, to top: FilePath) -> FilePath {
        var relative = path
        return relative.removePrefix(top) ? relative : path
    }

    /// `folder` with its links resolved; nil when it can't be.
    static func realFolder(_ folder: FilePath) -> FilePath? {
        guard let resolved = realpath(folder.string, nil) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }

    /// The trash for a file in `folder` (on device `on`): the home's when the home's data folder is on
    /// that file system, else the file system's own at its top folder; and that top folder (nil for the home's).
    private func trashFolder(for folder: FilePath, on: UInt64, of path: FilePath) throws(Failure) -> (FilePath, FilePath?) {
        if device(Self.existing(home)) == on { return (home, nil) }
        // The top folder: the highest one still on that device.
        var top = folder
        while !top.isTop, device(top.removingLastComponent()) == on { top = top.removingLastComponent() }
        var info = stat()
        let administered = top.appending(".Trash")
        if lstat(administered.string, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_ISVTX != 0 {
            let mine = administered.appending("\(uid)")
            if makeFolder(mine), lstat(mine.string, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid { return (mine, top) }
        }
        let own = top.appending(".Trash-\(uid)")
        guard makeFolder(own), lstat(own.string, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid else {
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
        let stem = name.stem, suffix = name.extension.map { ".\($0)" } ?? ""
        let contents = Self.info(for: top.map { Self.relative(path, to: $0) } ?? path, deletedAt: Date())
        for n in 1...10_000 {
            let candidate = n == 1 ? name.string : "\(stem).\(n)\(suffix)"
            let file = base.appending("files").appending(candidate)
            let infoFile = base.appending("info").appending(candidate + ".trashinfo")
            var info = stat()
            if lstat(file.string, &info) == 0 { continue }
            let fd = open(infoFile.string, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw failure(path, "\(infoFile) cannot be written (\(Errno(rawValue: errno)))")
            }
            let bytes = Array(contents.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == bytes.count, synced else {
                unlink(infoFile.string)
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
        while !at.isTop, stat(at.string, &info) != 0 { at = at.removingLastComponent() }
        return at
    }

    /// `folder` and the folders above it made (mode 0700) where missing; whether it is there now.
    private func makeFolder(_ folder: FilePath) -> Bool {
        var info = stat()
        if stat(folder.string, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if !folder.isTop, !makeFolder(folder.removingLastComponent()) { return false }
        return mkdir(folder.string, 0o700) == 0 || errno == EEXIST
    }

    private func failure(_ path: FilePath, _ reason: String) -> Failure {
        Failure(description: "\(path): cannot be moved to the trash: \(reason); it stays where it is")
    }
}

private extension FilePath {
    /// `/` (or an empty path): nothing above it.
    var isTop: Bool { removingLastComponent() == self }
}
