import Foundation
import Synchronization
@testable import Library
import SystemPackage
import Testing
import TestSupport

/// The photos' folders watched with inotify: what an editor's save and a write in place report, a burst
/// reported once, and a folder that cannot be watched said in one line.
@Suite struct FolderWatcherTests {
    /// Takes what the watcher reports until `wanted` is all touched (or 10 s pass).
    func changes(from watcher: FolderWatcher, until wanted: Set<FilePath>) -> FolderWatcher.Changes {
        var seen = FolderWatcher.Changes()
        let deadline = Date().addingTimeInterval(10)
        while !wanted.isSubset(of: seen.touched), Date() < deadline {
            let more = watcher.takeChanges()
            seen.touched.formUnion(more.touched)
            seen.renamed.merge(more.renamed) { $1 }
            usleep(20_000)
        }
        return seen
    }

    func written(by watcher: FolderWatcher, until wanted: Set<FilePath>) -> Set<FilePath> {
        changes(from: watcher, until: wanted).touched
    }

    @Test func aSaveAndAWriteInPlaceAreReportedByPath() throws {
        let folder = try TemporaryFolder()
        let photo = FilePath(folder.path + "/photo.jpg"), other = FilePath(folder.path + "/other.jpg")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: photo.string))
        try Data([1]).write(to: URL(fileURLWithPath: other.string))
        var said: [String] = []
        let made = FolderWatcher(folders: [FilePath(folder.path)], wake: {}) { said.append($0) }
        let watcher = try #require(made, "\(said)")
        // Written in place.
        try Data([4, 5]).write(to: URL(fileURLWithPath: photo.string))
        #expect(written(by: watcher, until: [photo]) == [photo])
        // Saved as editors do: a new file renamed over the old one (its temporary name is reported too).
        try Data([6]).write(to: URL(fileURLWithPath: folder.path + "/.other.tmp"))
        #expect(rename(folder.path + "/.other.tmp", other.string) == 0)
        #expect(written(by: watcher, until: [other]).contains(other))
    }

    @Test func aRenameIsReportedWithBothNamesAndADeletionByItsName() throws {
        let folder = try TemporaryFolder()
        let a = FilePath(folder.path + "/a.jpg"), b = FilePath(folder.path + "/b.jpg"), c = FilePath(folder.path + "/c.jpg")
        try Data([1]).write(to: URL(fileURLWithPath: a.string))
        try Data([2]).write(to: URL(fileURLWithPath: c.string))
        var said: [String] = []
        let made = FolderWatcher(folders: [FilePath(folder.path)], wake: {}) { said.append($0) }
        let watcher = try #require(made, "\(said)")
        #expect(rename(a.string, b.string) == 0)
        #expect(unlink(c.string) == 0)
        let seen = changes(from: watcher, until: [a, b, c])
        #expect(seen.touched == [a, b, c])
        #expect(seen.renamed == [a: b])
    }

    @Test func aBurstOfFilesIsReportedOnce() throws {
        let folder = try TemporaryFolder()
        let wakes = Atomic(0)
        var said: [String] = []
        let made = FolderWatcher(folders: [FilePath(folder.path)], wake: { wakes.add(1, ordering: .relaxed) }) { said.append($0) }
        let watcher = try #require(made, "\(said)")
        let files = Set((0..<200).map { FilePath(folder.path + "/IMG_\($0).jpg") })
        for file in files { try Data([0]).write(to: URL(fileURLWithPath: file.string)) }
        #expect(written(by: watcher, until: files) == files)
        // A copy of 200 files takes far less than the longest burst: one report, or two if the machine
        // paused between writes for more than the quiet time.
        #expect((1...2).contains(wakes.load(ordering: .relaxed)), "\(wakes.load(ordering: .relaxed)) reports")
    }

    @Test func aFolderThatCannotBeWatchedIsSaidInOneLine() throws {
        let folder = try TemporaryFolder()
        var said: [String] = []
        let watcher = FolderWatcher(folders: [FilePath(folder.path), FilePath(folder.path + "/gone")], wake: {}) { said.append($0) }
        #expect(watcher != nil, "the folder that is there is still watched")
        #expect(said.count == 1 && said[0].contains("changes in 1 of 2 folders are not followed"), "\(said)")
    }

    /// The kernel's watch table full (here: no watch may be taken): one line, and the folders are listed
    /// again every 2 s, so a photo copied in, one deleted and a folder made with a photo in it are still seen.
    @Test func withTheWatchTableFullTheFoldersAreListedAgain() throws {
        let folder = try TemporaryFolder()
        let old = FilePath(folder.path + "/old.jpg")
        try Data([1]).write(to: URL(fileURLWithPath: old.string))
        var said: [String] = []
        let made = FolderWatcher(folders: [FilePath(folder.path)], wake: {}, warn: { said.append($0) }, watchLimit: 0)
        let watcher = try #require(made)
        #expect(said == ["changes in 1 of 1 folders are not followed as they happen: No space left on device (the watch table is full: fs.inotify.max_user_watches); they are looked for every 2 s"])
        let new = FilePath(folder.path + "/new.jpg"), inside = FilePath(folder.path + "/import/a.jpg")
        try Data([2]).write(to: URL(fileURLWithPath: new.string))
        try FileManager.default.removeItem(atPath: old.string)
        try FileManager.default.createDirectory(atPath: folder.path + "/import", withIntermediateDirectories: false)
        try Data([3]).write(to: URL(fileURLWithPath: inside.string))
        let seen = changes(from: watcher, until: [new, old, inside])
        #expect([new, old, inside].allSatisfy(seen.touched.contains), "\(seen.touched)")
    }
}
