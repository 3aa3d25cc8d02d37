import Foundation
import GRDB
import SystemPackage

/// The photos the user marked as favorites (`.`, or the heart on the viewer's bar): the user's own data,
/// kept in `$XDG_DATA_HOME/photozoom/favorites.sqlite` (never beside the photos, never in the cache), by
/// path. The file is made with the first favorite; a launch without one reads nothing and writes nothing.
public final class Favorites {
    private let file: FilePath
    private var pool: DatabasePool?
    private var paths: Set<[UInt8]> = []
    private let say: (String) -> Void

    /// The favorites kept at `file`; `say` hears, in one line, a store that cannot be read or written
    /// (the marks then last for this run only).
    public init(file: FilePath, say: @escaping (String) -> Void) {
        self.file = file
        self.say = say
        guard FileManager.default.fileExists(atPath: file.string) else { return }
        do {
            let pool = try Self.openPool(file)
            paths = Set(try pool.read { try Data.fetchAll($0, sql: "SELECT path FROM favorite") }.map(Array.init))
            self.pool = pool
        } catch {
            say("the favorites in \(file) could not be read (\(error)); marks made now last for this run")
        }
    }

    /// `$XDG_DATA_HOME/photozoom/favorites.sqlite`, else under `~/.local/share`.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> FilePath? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return FilePath(data).appending("photozoom/favorites.sqlite") }
        return environment["HOME"].map { FilePath($0).appending(".local/share/photozoom/favorites.sqlite") }
    }

    private static func openPool(_ file: FilePath) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(2)
        let pool = try DatabasePool(path: file.string, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("favorites") { db in
            try db.create(table: "favorite") { t in
                t.primaryKey("path", .blob)          // the photo's path, as its bytes
                t.column("marked", .double).notNull()  // when, seconds since 1970
            }
        }
        try migrator.migrate(pool)
        return pool
    }

    public func contains(_ path: FilePath) -> Bool { paths.contains(path.bytes) }

    /// Whether there are none (a list of 100,000 photos need not be looked through).
    public var isEmpty: Bool { paths.isEmpty }

    /// Marks `path` as a favorite, or not, at once and for good.
    public func set(_ path: FilePath, favorite: Bool) {
        let bytes = path.bytes
        if favorite { paths.insert(bytes) } else { paths.remove(bytes) }
        do {
            if pool == nil {
                try FileManager.default.createDirectory(atPath: file.removingLastComponent().string, withIntermediateDirectories: true)
                pool = try Self.openPool(file)
            }
            try pool?.write { db in
                if favorite {
                    try db.execute(sql: "INSERT OR REPLACE INTO favorite (path, marked) VALUES (?, ?)",
                                   arguments: [Data(bytes), Date().timeIntervalSince1970])
                } else {
                    try db.execute(sql: "DELETE FROM favorite WHERE path = ?", arguments: [Data(bytes)])
                }
            }
        } catch {
            say("the favorites in \(file) could not be written (\(error)); the mark lasts for this run")
        }
    }
}
