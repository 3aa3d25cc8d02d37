import Glibc
import SystemPackage

/// What a folder holds, name by name, as `stat` gives it: what a folder the kernel cannot watch (its watch
/// table full) is compared with, now and then, to find what changed in it.
struct FolderSnapshot: Equatable {
    struct Entry: Equatable {
        let isFolder: Bool
        let size: Int64
        /// Last written, ns since 1970.
        let modified: Int64
    }

    let folder: FilePath
    private(set) var entries: [FilePath.Component: Entry] = [:]

    /// Lists `folder` now (hidden names left out, as a tree's walk leaves them).
    init(_ folder: FilePath) {
        self.folder = folder
        for name in FolderListing.names(in: folder) ?? [] where !name.string.hasPrefix(".") {
            var info = stat()
            guard folder.appending(name).withPlatformString({ stat($0, &info) }) == 0 else { continue }
            entries[name] = Entry(isFolder: info.st_mode & S_IFMT == S_IFDIR, size: Int64(info.st_size),
                                  modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
    }

    /// The paths that came, went or changed between `earlier` and this snapshot of the same folder.
    func changed(since earlier: FolderSnapshot) -> Set<FilePath> {
        let names = Set(entries.keys).union(earlier.entries.keys)
        return Set(names.filter { entries[$0] != earlier.entries[$0] }.map { folder.appending($0) })
    }

    /// The folders in it.
    var subfolders: [FilePath] { entries.filter(\.value.isFolder).map { folder.appending($0.key) } }
}
