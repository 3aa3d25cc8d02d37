import Foundation
import Testing
import TestSupport

/// Favorites in the viewer's own runs: a photo marked with `.` is still marked at the next launch, after
/// the cache (thumbnails, index) is deleted: they are the user's data, not the cache's.
@Suite struct FavoritesRunTests {
    @Test func favoritesSurviveTheCacheBeingDeleted() throws {
        let data = try TemporaryFolder(), scratch = try TemporaryFolder()
        var cache = try TemporaryFolder()
        let mark = scratch.path + "/mark.txt", look = scratch.path + "/look.txt", dump = scratch.path + "/scene.json"
        try "tap 60 120\nwait 900\nkey period\nwait 100\nkey Escape\nwait 900\n".write(toFile: mark, atomically: true, encoding: .utf8)
        try "wait 300\ndump \(dump)\n".write(toFile: look, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "500x700", "--script", mark],
                                                     environment: ["XDG_DATA_HOME": data.path, "XDG_CACHE_HOME": cache.path])
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        #expect(FileManager.default.fileExists(atPath: data.path + "/photozoom/favorites.sqlite"))
        cache = try TemporaryFolder()   // the old cache is deleted
        let (again, said) = try ViewerProcess.run(["--headless", "--size", "500x700", "--script", look],
                                                  environment: ["XDG_DATA_HOME": data.path, "XDG_CACHE_HOME": cache.path])
        #expect(again == 0 && said.isEmpty, "\(said)")
        let marked = try DumpedNode.all(in: dump).filter { $0.name.hasSuffix(".favorite") }.map(\.name)
        #expect(marked == ["cell.0.favorite"])
    }
}
