import Foundation
import Glibc
import GRDB
import Synchronization
import Imaging
import SystemPackage

/// What the library has learnt of each photo, kept between launches in SQLite (GRDB over the system's
/// libsqlite3): its size and modification time (what says it is the same file), when it was taken (the
/// camera's wall clock and offset), its camera, its orientation, whether its frames play, its album (folder), and
/// its thumbnail's mean colour once one was made. A second launch
/// of a tree takes its timeline from here and reads only the files whose size or time changed.
///
/// It is a cache (`$XDG_CACHE_HOME/photozoom/library.sqlite`): written in WAL mode, a batch a
/// transaction, so a viewer killed while indexing keeps every batch it committed, and two viewers share
/// it. One that cannot be read (damaged, of a schema this viewer does not know) is rebuilt, with one
/// line said; one another viewer keeps locked is left alone for this run.
// Unchecked: GRDB's DatabasePool serialises its own access; `say` is called from the thread that opened it.
public final class LibraryIndex: @unchecked Sendable {
    /// What the index holds of one file.
    public struct Entry: Equatable, Sendable {
        public var size: Int64
        /// Nanoseconds since 1970 (UTC).
        public var modified: Int64
        public var facts: PhotoFacts
        /// Its thumbnail's mean colour (0xRRGGBB), once a thumbnail was made: its cell's colour before its
        /// thumbnail comes.
        public var colour: UInt32?

        public init(size: Int64, modified: Int64, facts: PhotoFacts, colour: UInt32? = nil) {
            self.size = size
            self.modified = modified
            self.facts = facts
            self.colour = colour
        }
    }

    /// How long a write waits for another viewer's, s.
    static let busyTimeout = 2.0
    /// Files read between commits while indexing.
    public static let batch = 500

    private let pool: DatabasePool
    private let say: (String) -> Void
    /// Cleared by the first write that fails (another viewer holding the index for more than
    /// `busyTimeout`, a full disk): the run goes on reading, without waiting on every batch.
    private let writable = Mutex(true)

    private init(pool: DatabasePool, say: @escaping (String) -> Void) {
        self.pool = pool
        self.say = say
    }

    /// The index at `file` (its folder made if missing); nil when it cannot be used this run, with why in
    /// `say` (one line). A file SQLite finds damaged or not a database is deleted and made anew (it is a
    /// cache); any other failure (a full disk, a schema not this viewer's) leaves it as it is. Only its owner
    /// can read it: the files are 0600 in a 0700 folder, since the paths and cameras of the photos are in it.
    public static func open(_ file: FilePath, say: @escaping (String) -> Void) -> LibraryIndex? {
        makePrivate(file)
        do {
            let (pool, migrated) = try openPool(file)
            if migrated { say("the library index \(file) was an older viewer's; it is migrated, and every photo is read again once") }
            return LibraryIndex(pool: pool, say: say)
        } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
            say("the library index \(file) is kept busy by another viewer; this run reads every photo (\(error.resultCode))")
            return nil
        } catch is NewerSchema {
            say("the library index \(file) was written by a newer viewer; this run leaves it as it is and reads every photo")
            return nil
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            say("the library index \(file) could not be read (\(reason(error))); it is rebuilt")
            for suffix in ["", "-wal", "-shm"] { _ = try? FileManager.default.removeItem(atPath: file.string + suffix) }
            makePrivate(file)
            return (try? openPool(file)).map { LibraryIndex(pool: $0.pool, say: say) }
        } catch {
            say("the library index \(file) could not be used (\(reason(error))); it is kept as it is, and this run reads every photo")
            return nil
        }
    }

    /// The index's folder made 0700 and its files 0600 (made empty if missing, so that SQLite's journal files
    /// take the same mode).
    private static func makePrivate(_ file: FilePath) {
        let folder = file.removingLastComponent().string
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = chmod(folder, 0o700)
        let fd = Glibc.open(file.string, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 { close(fd) }
        for suffix in ["", "-wal", "-shm"] { _ = chmod(file.string + suffix, 0o600) }
    }

    /// The default place: `$XDG_CACHE_HOME/photozoom/library.sqlite`, else under `~/.cache`.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> FilePath? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return FilePath(cache).appending("photozoom/library.sqlite") }
        return environment["HOME"].map { FilePath($0).appending(".cache/photozoom/library.sqlite") }
    }

    /// The index's pool, migrated to this viewer's schema; `migrated`: it was an older viewer's.
    private static func openPool(_ file: FilePath) throws -> (pool: DatabasePool, migrated: Bool) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let pool = try DatabasePool(path: file.string, configuration: configuration)
        // A newer viewer's index is its own: not rebuilt, not written.
        if try pool.read(migrator.hasBeenSuperseded) { throw NewerSchema() }
        let older = try pool.read { db in try db.tableExists("grdb_migrations") && !migrator.hasCompletedMigrations(db) }
        do {
            try migrator.migrate(pool)
        } catch {
            // Another viewer (or a tool) opening the same new index migrated it between our look and our turn.
            guard try pool.read(migrator.hasCompletedMigrations) else { throw error }
        }
        // A damaged file can open and migrate, and fail only where it is damaged: look at all of it once.
        try pool.read { db in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check")
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check ?? "quick_check") }
        }
        return (pool, older)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("photos") { db in
            try db.create(table: "photo") { t in
                t.primaryKey("path", .blob)             // the file's path, as its bytes
                t.column("album", .blob).notNull()      // its folder's path
                t.column("size", .integer).notNull()
                t.column("modified", .integer).notNull()
                t.column("takenWallClock", .integer)    // EXIF's date, as seconds on the camera's clock
                t.column("takenOffset", .integer)       // that clock's offset from UTC, s; null: not said
                t.column("camera", .text)
                t.column("orientation", .integer)
            }
        }
        migrator.registerMigration("pixel size") { db in
            try db.alter(table: "photo") { t in
                t.add(column: "width", .integer)   // as stored, before the orientation turns it; null: not said
                t.add(column: "height", .integer)
            }
            // The rows before knew no size: every photo is read again once (the index is a cache).
            try db.execute(sql: "DELETE FROM photo")
        }
        migrator.registerMigration("moving") { db in
            try db.alter(table: "photo") { t in
                t.add(column: "moving", .text)   // the format's name when its frames play ("GIF", "MP4"); null: a still
            }
            // The rows before did not say: every photo is read again once.
            try db.execute(sql: "DELETE FROM photo")
        }
        migrator.registerMigration("colour") { db in
            try db.alter(table: "photo") { t in
                t.add(column: "colour", .integer)   // its thumbnail's mean colour, 0xRRGGBB; null: none made yet
            }
        }
        return migrator
    }

    private struct NewerSchema: Error {}

    private static func reason(_ error: any Error) -> String {
        (error as? DatabaseError).map { "\($0.resultCode): \($0.message ?? "")" } ?? "\(error)"
    }

    /// What is indexed of the files under `root`, by path bytes.
    public func entries(under root: FilePath) -> [[UInt8]: Entry] {
        var found: [[UInt8]: Entry] = [:]
        forEachEntry(under: root, expecting: { found.reserveCapacity($0) }) { found[$0] = $1 }
        return found
    }

    /// Each file indexed under `root`, with what is known of it, in no order; `expecting` first hears how many.
    public func forEachEntry(under root: FilePath, expecting: (Int) -> Void = { _ in }, _ body: ([UInt8], Entry) -> Void) {
        let prefix = root.bytes + [UInt8(ascii: "/")]
        // Every path that starts with "root/": from "root/" up to "root0" ('0' follows '/').
        let upper = Array(prefix.dropLast()) + [UInt8(ascii: "0")]
        try? pool.read { db in
            let range: StatementArguments = [Data(prefix), Data(upper)]
            expecting(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE path >= ? AND path < ?", arguments: range) ?? 0)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT path, size, modified, takenWallClock, takenOffset, camera, orientation, width, height, moving, colour FROM photo
                WHERE path >= ? AND path < ?
                """, arguments: range)
            while let row = try rows.next() {
                let path: Data = row[0]
                let date = (row[3] as Int64?).map { CaptureDate(wallClock: $0, utcOffset: row[4]) }
                let orientation = (row[6] as Int?).flatMap(ExifOrientation.init(rawValue:))
                let pixels = (row[7] as Int?).flatMap { width in (row[8] as Int?).map { PixelSize(width: width, height: $0) } }
                let moving = (row[9] as String?).flatMap { name in ImageFormat.all.first { $0.name == name } }
                body(Array(path), Entry(size: row[1], modified: row[2],
                                        facts: PhotoFacts(date: date, camera: row[5], orientation: orientation, pixelSize: pixels, moving: moving),
                                        colour: (row[10] as Int64?).map { UInt32(truncatingIfNeeded: $0) }))
            }
        }
    }

    /// Keeps `entries` (files just read), in one transaction.
    public func record(_ entries: [(path: FilePath, entry: Entry)]) {
        write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO photo (path, album, size, modified, takenWallClock, takenOffset, camera, orientation, width, height, moving)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (path, entry) in entries {
                try insert.execute(arguments: [Data(path.bytes), Data(path.removingLastComponent().bytes),
                                               entry.size, entry.modified, entry.facts.date?.wallClock,
                                               entry.facts.date?.utcOffset, entry.facts.camera, entry.facts.orientation?.rawValue,
                                               entry.facts.pixelSize?.width, entry.facts.pixelSize?.height, entry.facts.moving?.name])
            }
        }
    }

    /// Keeps each photo's thumbnail's mean colour (0xRRGGBB), by path, in one transaction.
    public func recordColours(_ colours: [(path: [UInt8], colour: UInt32)]) {
        guard !colours.isEmpty else { return }
        write { db in
            let update = try db.cachedStatement(sql: "UPDATE photo SET colour = ? WHERE path = ?")
            for (path, colour) in colours { try update.execute(arguments: [Int64(colour), Data(path)]) }
        }
    }

    /// Forgets files no longer there.
    public func forget(_ paths: [[UInt8]]) {
        guard !paths.isEmpty else { return }
        write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
            for path in paths { try delete.execute(arguments: [Data(path)]) }
        }
    }

    /// One transaction, unless a write failed before in this run; the first failure is said, once.
    private func write(_ updates: (Database) throws -> Void) {
        guard writable.withLock({ $0 }) else { return }
        do {
            try pool.write(updates)
        } catch {
            writable.withLock { $0 = false }
            say("the library index could not be written (\(Self.reason(error))); this run keeps nothing more in it")
        }
    }

    /// How many files the index holds (the tests count with it).
    public var count: Int { (try? pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM photo") ?? 0 }) ?? 0 }
}
