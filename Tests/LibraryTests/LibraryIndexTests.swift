import Foundation
import GRDB
import Glibc
import Imaging
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport

/// The library index: a tree indexed once is laid out from it the next time, reading only the files that
/// changed; it survives damage, another schema and a second viewer.
@Suite struct LibraryIndexTests {
    /// A tree of `count` small camera JPEGs, a minute apart from 2024-05-01 10:00 (+02:00), taken with two
    /// cameras, in folders of 10.
    static func cameraTree(_ count: Int, in folder: TemporaryFolder) throws -> [String] {
        let picture = CameraJPEG.quadrants(width: 16, height: 16)
        return try (0..<count).map { i in
            let exif = ExifBlock(dateTaken: (String(format: "2024:05:01 %02d:%02d:00", 10 + i / 60, i % 60), "+02:00"),
                                 camera: i % 2 == 0 ? ("Canon", "Canon EOS R6") : ("Apple", "iPhone 15 Pro"))
            let bytes = try #require(JPEGEncoder.encode(picture, quality: 80, exif: exif))
            return try folder.write(String(format: "day%02d/IMG_%04d.jpg", i / 10, i), bytes)
        }
    }

    func collect(_ folder: TemporaryFolder, index: LibraryIndex?) -> ([Photo], PhotoLibrary.Indexing) {
        var indexing = PhotoLibrary.Indexing()
        let photos = PhotoLibrary.collect([FilePath(folder.path)], index: index, indexed: { indexing = $0 }).photos
        return (photos, indexing)
    }

    @Test func aSecondLaunchReadsOnlyWhatChanged() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        let files = try Self.cameraTree(40, in: tree)
        let file = FilePath(cache.path + "/photozoom/library.sqlite")
        var said: [String] = []
        let (first, cold) = collect(tree, index: LibraryIndex.open(file) { said.append($0) })
        #expect(cold == .init(read: 40, fromIndex: 0))
        #expect(first.map(\.path) == files, "by date taken")

        let (second, warm) = collect(tree, index: LibraryIndex.open(file) { said.append($0) })
        #expect(warm == .init(read: 0, fromIndex: 40), "a second launch reads no photo")
        #expect(second == first, "the same timeline, the same dates")

        // One rewritten (a new time), one gone, one new: those are read, the gone one forgotten.
        var later = [timespec(tv_sec: 1_800_000_000, tv_nsec: 0), timespec(tv_sec: 1_800_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, files[3], &later, 0) == 0)
        #expect(unlink(files[7]) == 0)
        _ = try tree.copy(files[0], as: "new/IMG_9999.jpg")
        let index = try #require(LibraryIndex.open(file) { said.append($0) })
        let (third, changed) = collect(tree, index: index)
        #expect(changed == .init(read: 2, fromIndex: 38, forgotten: 1))
        #expect(third.count == 40 && index.count == 40)
        #expect(said.isEmpty, "\(said)")
        let entries = index.entries(under: FilePath(tree.path))
        let canon = try #require(entries[FilePath(files[0]).bytes])
        #expect(canon.facts.camera == "Canon EOS R6" && canon.facts.date?.utcOffset == 7200)
        #expect(entries[FilePath(files[1]).bytes]?.facts.camera == "Apple iPhone 15 Pro")
    }

    /// Whether a photo's frames play is kept with it, so that a launch from the index opens no file to badge it: an
    /// animated GIF plays as a GIF, a GIF of one frame and a JPEG are stills, the same from the index as from the files.
    @Test func whetherAPhotoMovesIsKept() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(2, in: tree)
        try FileManager.default.createDirectory(atPath: tree.path + "/gifs", withIntermediateDirectories: true)
        try TestGIF.write(to: tree.path + "/gifs/moving.gif", width: 32, height: 24, frames: 3, delay: 10)
        try TestGIF.write(to: tree.path + "/gifs/still.gif", width: 32, height: 24, frames: 1, delay: 10)
        let index = try #require(LibraryIndex.open(FilePath(cache.path + "/library.sqlite")) { _ in })
        let expected: [String: Photo.Movement] = ["IMG_0000.jpg": .still, "IMG_0001.jpg": .still, "moving.gif": .plays(.gif), "still.gif": .still]
        for run in ["read", "from the index"] {
            let (photos, _) = collect(tree, index: index)
            let movements = Dictionary(uniqueKeysWithValues: photos.map { ($0.name, $0.movement) })
            #expect(movements == expected.mapValues { $0 }, "\(run): \(movements)")
        }
    }

    /// A file that is not an index (damaged, or something else) is rebuilt, with one line.
    @Test func aDamagedIndexIsRebuiltWithOneLine() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(12, in: tree)
        let path = try cache.write("photozoom/library.sqlite", Array(repeating: 0xA5, count: 8192))
        var said: [String] = []
        let index = try #require(LibraryIndex.open(FilePath(path)) { said.append($0) })
        #expect(said.count == 1 && said[0].contains("could not be read") && said[0].hasSuffix("it is rebuilt"), "\(said)")
        #expect(collect(tree, index: index).1 == .init(read: 12, fromIndex: 0))
        #expect(index.count == 12)
    }

    /// An index of another schema (a table this viewer did not make) is not deleted: one line, and the run
    /// goes on without it. Only SQLite's own "damaged" or "not a database" has a file rebuilt.
    @Test func anIndexOfAnotherSchemaIsKept() throws {
        let cache = try TemporaryFolder()
        let path = cache.path + "/library.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE photo (name TEXT PRIMARY KEY, taken REAL)")
            try db.execute(sql: "INSERT INTO photo VALUES ('a.jpg', 1.5)")
        }
        var said: [String] = []
        #expect(LibraryIndex.open(FilePath(path)) { said.append($0) } == nil)
        #expect(said.count == 1 && said[0].hasSuffix("it is kept as it is, and this run reads every photo"), "\(said)")
        let kept = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT name FROM photo") }
        #expect(kept == "a.jpg")
    }

    /// The index holds the user's paths and cameras: its files are the owner's alone.
    @Test func theIndexIsPrivate() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(3, in: tree)
        let path = cache.path + "/photozoom/library.sqlite"
        let index = try #require(LibraryIndex.open(FilePath(path)) { _ in })
        _ = collect(tree, index: index)
        func mode(_ path: String) -> mode_t? {
            var info = stat()
            return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
        }
        #expect(mode(cache.path + "/photozoom") == 0o700)
        for suffix in ["", "-wal", "-shm"] { #expect(mode(path + suffix) == 0o600, "\(suffix)") }
    }

    /// The first viewer's index (no pixel sizes) is migrated with one line, and its photos read again once: their
    /// sizes are kept from then on.
    @Test func theFirstSchemaIsMigratedAndItsPhotosReadAgainWithTheirSizes() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(5, in: tree)
        let path = cache.path + "/library.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('photos');
                CREATE TABLE photo (path BLOB PRIMARY KEY, album BLOB NOT NULL, size INTEGER NOT NULL, modified INTEGER NOT NULL,
                                    takenWallClock INTEGER, takenOffset INTEGER, camera TEXT, orientation INTEGER);
                INSERT INTO photo VALUES (x'2f612e6a7067', x'2f', 1, 1, NULL, NULL, NULL, NULL);
                """)
        }
        var said: [String] = []
        let index = try #require(LibraryIndex.open(FilePath(path)) { said.append($0) })
        #expect(said.count == 1 && said[0].contains("older viewer's; it is migrated"), "\(said)")
        #expect(index.count == 0)
        #expect(collect(tree, index: index).1 == .init(read: 5, fromIndex: 0))
        let sizes = index.entries(under: FilePath(tree.path)).values.map(\.facts.pixelSize)
        #expect(sizes.count == 5 && sizes.allSatisfy { $0 == PixelSize(width: 16, height: 16) }, "\(sizes)")
        #expect(LibraryIndex.open(FilePath(path)) { said.append($0) } != nil && said.count == 1, "migrated once: \(said)")
    }

    /// Another program holding the index (a write lock kept past the 2 s a write waits): one line, and the
    /// run goes on without keeping anything more (rather than waiting again at every batch).
    @Test func anIndexHeldByAnotherIsOneLineAndNoWait() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(3 * LibraryIndex.batch, in: tree)
        let path = cache.path + "/library.sqlite"
        var said: [String] = []
        let index = try #require(LibraryIndex.open(FilePath(path)) { said.append($0) })
        // Another connection holds a write transaction until the collection is over.
        let holder = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.inTransaction(.exclusive) { _ in
                locked.signal()
                release.wait()
                return .rollback
            }
        }
        locked.wait()
        let (photos, indexing) = collect(tree, index: index)
        release.signal()
        #expect(photos.count == 3 * LibraryIndex.batch && indexing.read == 3 * LibraryIndex.batch, "every photo read and shown")
        #expect(said.count == 1 && said[0].contains("could not be written"), "\(said)")
        index.record([(FilePath(tree.path + "/x.jpg"), LibraryIndex.Entry(size: 1, modified: 1, facts: PhotoFacts()))])
        #expect(index.count == 0, "nothing more is kept this run, though the lock is gone")
    }

    /// An index a newer viewer migrated further is left as it is: one line, and no index this run.
    @Test func aNewerViewersIndexIsLeftAlone() throws {
        let cache = try TemporaryFolder()
        let path = cache.path + "/library.sqlite"
        _ = try #require(LibraryIndex.open(FilePath(path)) { _ in })
        let ours = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('from a newer viewer')")
        }
        var said: [String] = []
        #expect(LibraryIndex.open(FilePath(path)) { said.append($0) } == nil)
        #expect(said.count == 1 && said[0].contains("newer viewer"), "\(said)")
        #expect(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") } == ours.map { $0 + 1 },
                "still there, as it was")
    }

    /// Two viewers on the same tree share one index: what one keeps, the other reads.
    @Test func twoViewersShareTheIndex() throws {
        let tree = try TemporaryFolder(), cache = try TemporaryFolder()
        _ = try Self.cameraTree(20, in: tree)
        let file = FilePath(cache.path + "/library.sqlite")
        let one = try #require(LibraryIndex.open(file) { _ in })
        let other = try #require(LibraryIndex.open(file) { _ in })
        #expect(collect(tree, index: one).1.read == 20)
        #expect(collect(tree, index: other).1 == .init(read: 0, fromIndex: 20))
    }
}
