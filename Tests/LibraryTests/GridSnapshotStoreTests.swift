import Foundation
import Glibc
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport

/// The grid's first screen kept between launches, in a private folder, over real files.
@Suite struct GridSnapshotStoreTests {
    let photos = try! TemporaryFolder()
    let cache = try! TemporaryFolder()
    var store: GridSnapshotStore { GridSnapshotStore(folder: cache.path + "/photozoom/grid") }
    let key = Array("1920.0x1080.0@1.0 sRGB\nA\0B\0".utf8)

    /// Two photo files and a cell's pixels for each (a gradient, so that every byte counts).
    func twoCells() throws -> (paths: [FilePath], cells: [GridSnapshotStore.Cell]) {
        var paths: [FilePath] = [], cells: [GridSnapshotStore.Cell] = []
        for (i, name) in ["a.jpg", "b.jpg"].enumerated() {
            let path = try photos.copy(TestImages.bundledFolder + "/Kleiber_by_Lukas_Baubkus.jpg", as: name)
            let pixels = PixelImage(width: 30 + i, height: 20, isOpaque: true)
            for y in 0..<20 { for x in 0..<(30 + i) { pixels.setPixel(x: x, y: y, 0xFF00_0000 | UInt32(x * 7 + y * 3 + i) & 0xFF_FFFF) } }
            let file = try #require(GridSnapshotStore.FileIdentity(FilePath(path)))
            paths.append(FilePath(path))
            cells.append(GridSnapshotStore.Cell(index: i, file: file, pixels: pixels))
        }
        return (paths, cells)
    }

    @Test func aSnapshotComesBackAsItWasWritten() throws {
        let (paths, cells) = try twoCells()
        try store.write(cells, key: key)
        let read = store.read(key: key) { paths.indices.contains($0) ? paths[$0] : nil }
        #expect(read.keys.sorted() == [0, 1])
        for cell in cells {
            let image = try #require(read[cell.index])
            #expect(image.width == cell.pixels.width && image.height == cell.pixels.height && image.isOpaque)
            #expect(PixelComparison(image, cell.pixels, channelTolerance: 0).differing == 0)
        }
        #expect(store.read(key: Array("another window".utf8)) { paths[$0] }.isEmpty, "another key has none")
    }

    /// A file written again since (its mtime moved), or a cell that shows another photo now, is left out.
    @Test func aCellWhoseFileChangedIsLeftOut() throws {
        let (paths, cells) = try twoCells()
        try store.write(cells, key: key)
        var later = timespec(tv_sec: time(nil) + 60, tv_nsec: 0)
        _ = withUnsafePointer(to: &later) { now in paths[1].withPlatformString { utimensat(AT_FDCWD, $0, [now.pointee, now.pointee], 0) } }
        #expect(store.read(key: key) { paths.indices.contains($0) ? paths[$0] : nil }.keys.sorted() == [0])
        #expect(store.read(key: key) { _ in paths[1] }.isEmpty, "each cell shows another photo now")
    }

    /// A snapshot cut short, or one that is not a snapshot at all, gives nothing (and no crash).
    @Test func aDamagedSnapshotGivesNothing() throws {
        let (paths, cells) = try twoCells()
        try store.write(cells, key: key)
        let file = store.folder + "/" + GridSnapshotStore.name(forKey: key)
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        for damaged in [whole.prefix(whole.count - 1), whole.prefix(40), Data("PZGRID1\n".utf8) + Data(repeating: 0xFF, count: 64),
                        Data(), whole + Data([0])] {
            try damaged.write(to: URL(fileURLWithPath: file))
            #expect(store.read(key: key) { paths.indices.contains($0) ? paths[$0] : nil }.isEmpty, "\(damaged.count) bytes")
        }
    }

    /// The newest snapshots are kept up to the byte budget (the newest always); the oldest go.
    @Test func theOldestSnapshotsGoBeyondTheBudget() throws {
        let (_, cells) = try twoCells()
        try store.write(cells, key: key)
        let file = store.folder + "/" + GridSnapshotStore.name(forKey: key)
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        unlink(file)
        let small = GridSnapshotStore(folder: store.folder, keptBytes: 3 * bytes + bytes / 2)   // room for three and a half
        for i in 0..<5 {
            try small.write(cells, key: Array("window \(i)".utf8))
            usleep(20_000)   // mtimes apart
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.folder).sorted()
        #expect(names == (2..<5).map { GridSnapshotStore.name(forKey: Array("window \($0)".utf8)) }.sorted())
    }

    /// A snapshot a viewer was writing when it ended (its temporary name) goes once it is old; one being
    /// written now stays.
    @Test func aSnapshotLeftHalfWrittenGoesOnceItIsOld() throws {
        let (_, cells) = try twoCells()
        try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
        let old = store.folder + "/.0123456789abcdef0123456789abcdef.grid.4242", fresh = store.folder + "/.fedcba9876543210fedcba9876543210.grid.4343"
        for path in [old, fresh] { FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])) }
        var then = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        _ = withUnsafePointer(to: &then) { t in utimensat(AT_FDCWD, old, [t.pointee, t.pointee], 0) }
        try store.write(cells, key: key)
        #expect(!FileManager.default.fileExists(atPath: old) && FileManager.default.fileExists(atPath: fresh))
    }
}
