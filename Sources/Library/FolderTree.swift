import Glibc
import Imaging
import SystemPackage

/// Every file under a folder, folder by folder in a file manager's order (`FolderListing`), as a
/// Photos library takes a tree: hidden files and folders are skipped (and so are the folders named in
/// `skipping`, a cache), a link to a folder is followed the first time that folder is met (a second
/// way to it is skipped), and a link back to a folder it is inside (a loop) is skipped and said.
struct FolderTree {
    /// A regular file found, with its modification time (seconds since 1970 UTC).
    struct File {
        let path: FilePath
        /// Seconds since 1970 (UTC), to the nanosecond.
        let modified: Double
        /// Bytes; with `modified`, what says a file is the one indexed.
        var size: Int64 = 0
        /// `modified` as whole nanoseconds (what the index keeps).
        var modifiedNanoseconds: Int64 = 0
        /// Whether `stat` found a regular file (else: something else, or nothing to stat).
        var isRegular = false
    }

    private(set) var files: [File] = []
    /// The folders listed, the root first.
    private(set) var folders: [FilePath] = []
    private(set) var problems: [String] = []
    /// Folders listed, as (device, inode): a folder reached twice is listed once.
    private var listed: Set<FolderID> = []
    private let skipped: Set<FolderID>
    /// Deeper than this is a tree gone wrong (a bind mount of its own parent), not photos.
    static let maxDepth = 64

    private struct FolderID: Hashable {
        let device: UInt64
        let inode: UInt64
        init?(_ path: FilePath) {
            var info = stat()
            guard path.withPlatformString({ stat($0, &info) }) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    init(root: FilePath, skipping: [FilePath] = []) {
        skipped = Set(skipping.compactMap(FolderID.init))
        walk(root, inside: [])
    }

    /// `inside`: the folders `folder` is in, the root first.
    private mutating func walk(_ folder: FilePath, inside: [FolderID]) {
        guard let id = FolderID(folder), !skipped.contains(id) else { return }
        if inside.contains(id) {
            problems.append("\(Photo(file: folder).path): a link to a folder it is inside (a loop); not followed")
            return
        }
        guard listed.insert(id).inserted else { return }
        folders.append(folder)
        let depth = inside.count
        guard depth < Self.maxDepth else {
            problems.append("\(Photo(file: folder).path): more than \(Self.maxDepth) folders deep; not listed")
            return
        }
        guard let names = FolderListing.names(in: folder) else {
            problems.append("\(Photo(file: folder).path): the folder cannot be read (\(PhotoFile.reason(errno)))")
            return
        }
        // Each name is looked up in the folder itself (one step), not from the root again.
        let directory = folder.withPlatformString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { if directory >= 0 { close(directory) } }
        var subfolders: [FilePath] = []
        for name in names where name.withPlatformString({ $0.pointee }) != CChar(UInt8(ascii: ".")) {
            let path = folder.appending(name)
            var info = stat()
            let found = directory >= 0 ? name.withPlatformString { fstatat(directory, $0, &info, 0) } : path.withPlatformString { stat($0, &info) }
            guard found == 0 else {
                files.append(File(path: path, modified: 0, size: -1))   // a dangling link or a vanished file: the caller says why
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: subfolders.append(path)
            default:
                let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                files.append(File(path: path, modified: Double(nanoseconds) / 1e9, size: Int64(info.st_size),
                                  modifiedNanoseconds: nanoseconds, isRegular: info.st_mode & S_IFMT == S_IFREG))
            }
        }
        for subfolder in subfolders { walk(subfolder, inside: inside + [id]) }
    }
}
