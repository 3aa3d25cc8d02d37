import Crypto
import Foundation
import Glibc
import Pixels
import SystemPackage

/// The grid's first screen as the last launch showed it: each cell's device pixels, with the file it
/// showed (path, size and modification time). A launch with the same window, scale, colour space and
/// first photos shows these pixels at once, before a thumbnail is decoded (the launch image of iOS, per
/// cell); each cell whose file changed since is left out and loads as usual.
///
/// One file per first screen, `<key>.grid` in `$XDG_CACHE_HOME/photozoom/grid/` (a cache: rebuilt
/// when missing, a damaged one ignored); the oldest go beyond `keptBytes`. Little-endian:
/// `PZGRID1\n`, the cell count (u32); per cell its index, width, height (u32), the file's size (u64),
/// mtime seconds and nanoseconds (i64), the path's length (u32) and bytes; then each cell's pixels,
/// ARGB32 rows in the order of the cells.
public struct GridSnapshotStore: Sendable {
    /// A cell as it was shown.
    public struct Cell: Sendable {
        public let index: Int
        public let file: FileIdentity
        public let pixels: PixelImage

        public init(index: Int, file: FileIdentity, pixels: PixelImage) {
            self.index = index
            self.file = file
            self.pixels = pixels
        }
    }

    /// Which version of a file a cell showed.
    public struct FileIdentity: Sendable, Equatable {
        public let path: FilePath
        public let size: Int
        public let modified: timespec

        /// The file as it is now; nil when it can't be read as a regular file.
        public init?(_ path: FilePath) {
            var info = stat()
            guard path.withPlatformString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            self.init(path: path, size: Int(info.st_size), modified: info.st_mtim)
        }

        init(path: FilePath, size: Int, modified: timespec) {
            self.path = path
            self.size = size
            self.modified = modified
        }

        public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
            a.path == b.path && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    /// Bytes of snapshots kept by default (a 1080p screen is 8 MB, a 4K one 32 MB).
    public static let defaultKeptBytes = 64 << 20
    /// Larger cells, more cells or longer paths are not a snapshot this viewer wrote.
    static let maxCells = 4096, maxSide = 4096, maxPathBytes = 4096
    private static let magic = Array("PZGRID1\n".utf8)

    public let folder: String
    /// Bytes of snapshots kept, the newest first (one per window size and folder shown lately), and
    /// always the newest.
    public let keptBytes: Int

    public init(folder: String, keptBytes: Int = GridSnapshotStore.defaultKeptBytes) {
        self.folder = folder
        self.keptBytes = keptBytes
    }

    /// `$XDG_CACHE_HOME/photozoom/grid`, else `$HOME/.cache/photozoom/grid`; nil with neither set.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/photozoom/grid" }
        return environment["HOME"].map { $0 + "/.cache/photozoom/grid" }
    }

    /// The file name for a first screen: a digest of everything that decides its pixels (`key`: the
    /// window's size and scale, the colour space, the first photos' paths).
    public static func name(forKey key: [UInt8]) -> String {
        SHA256.hash(data: key).prefix(16).map { String(format: "%02x", $0) }.joined() + ".grid"
    }

    /// The cells stored under `key` whose files are unchanged, by index; empty when there is no
    /// snapshot (or it is damaged). `expected(index)` is the photo the cell shows now.
    public func read(key: [UInt8], expected: (Int) -> FilePath?) -> [Int: PixelImage] {
        let path = folder + "/" + Self.name(forKey: key)
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) else { return [:] }
        defer { try? fd.close() }
        guard let header = try? Self.readHeader(fd) else { return [:] }
        var cells: [Int: PixelImage] = [:]
        var offset = header.pixelsStart
        for entry in header.entries {
            let bytes = entry.width * entry.height * 4
            defer { offset += bytes }
            guard expected(entry.index) == entry.file.path, FileIdentity(entry.file.path) == entry.file else { continue }
            let image = PixelImage(width: entry.width, height: entry.height, isOpaque: true)
            let raw = UnsafeMutableRawBufferPointer(start: image.bytes, count: bytes)
            guard (try? fd.read(fromAbsoluteOffset: Int64(offset), into: raw)) == bytes else { return [:] }
            cells[entry.index] = image
        }
        return cells
    }

    /// Writes the snapshot for `key` (a new file put in place by a rename: a reader never sees half of
    /// one), then lets the oldest snapshots beyond `keptBytes` go.
    public func write(_ cells: [Cell], key: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var header = Self.magic
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        put(UInt32(cells.count))
        for cell in cells {
            put(UInt32(cell.index)); put(UInt32(cell.pixels.width)); put(UInt32(cell.pixels.height))
            put(UInt64(cell.file.size)); put(Int64(cell.file.modified.tv_sec)); put(Int64(cell.file.modified.tv_nsec))
            let path = cell.file.path.bytes
            put(UInt32(path.count))
            header += path
        }
        let name = Self.name(forKey: key)
        try AtomicFile.write(folder + "/" + name, permissions: 0o600) { fd in
            _ = try fd.writeAll(header)
            for cell in cells {
                _ = try fd.writeAll(UnsafeRawBufferPointer(start: cell.pixels.bytes, count: cell.pixels.width * cell.pixels.height * 4))
            }
        }
        pruneOldest()
    }

    /// A snapshot being written is named `.<name>.<pid>` until it is complete; one this old was left by
    /// a viewer that ended while writing it.
    static let abandonedAfter: Int = 600

    private func pruneOldest() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") && name.contains(".grid.") {
            var info = stat()
            if stat(folder + "/" + name, &info) == 0, time(nil) - info.st_mtim.tv_sec > Self.abandonedAfter { unlink(folder + "/" + name) }
        }
        let snapshots = names.filter { $0.hasSuffix(".grid") && !$0.hasPrefix(".") }.compactMap { name -> (name: String, modified: Double, bytes: Int)? in
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0 else { return nil }
            return (name, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9, Int(info.st_size))
        }
        var total = 0
        for (i, snapshot) in snapshots.sorted(by: { $0.modified > $1.modified }).enumerated() {
            total += snapshot.bytes
            if i > 0, total > keptBytes { unlink(folder + "/" + snapshot.name) }
        }
    }

    private struct Header {
        var entries: [(index: Int, width: Int, height: Int, file: FileIdentity)] = []
        var pixelsStart = 0
    }

    private enum Damaged: Error { case damaged }

    /// The cells' headers, checked against the file's length.
    private static func readHeader(_ fd: FileDescriptor) throws -> Header {
        let length = Int(try fd.seek(offset: 0, from: .end))
        var at = 0
        func bytes(_ n: Int) throws -> [UInt8] {
            guard n >= 0, at + n <= length else { throw Damaged.damaged }
            var out = [UInt8](repeating: 0, count: n)
            let read = try out.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: Int64(at), into: $0) }
            guard read == n else { throw Damaged.damaged }
            at += n
            return out
        }
        func number<T: FixedWidthInteger>(_: T.Type) throws -> T {
            let raw = try bytes(MemoryLayout<T>.size)
            return T(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
        }
        guard try bytes(magic.count) == magic else { throw Damaged.damaged }
        let count = Int(try number(UInt32.self))
        guard count <= maxCells else { throw Damaged.damaged }
        var header = Header()
        var pixelBytes = 0
        for _ in 0..<count {
            let index = Int(try number(UInt32.self)), width = Int(try number(UInt32.self)), height = Int(try number(UInt32.self))
            let size = try number(UInt64.self), seconds = try number(Int64.self), nanoseconds = try number(Int64.self)
            let pathLength = Int(try number(UInt32.self))
            guard (1...maxSide).contains(width), (1...maxSide).contains(height), (1...maxPathBytes).contains(pathLength),
                  size <= UInt64(Int.max) else { throw Damaged.damaged }
            let path = try bytes(pathLength)
            guard !path.contains(0) else { throw Damaged.damaged }
            let file = FileIdentity(path: FilePath(bytes: path),
                                    size: Int(size), modified: timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)))
            header.entries.append((index, width, height, file))
            pixelBytes += width * height * 4
        }
        header.pixelsStart = at
        guard at + pixelBytes == length else { throw Damaged.damaged }
        return header
    }
}
