import Foundation
import Library
import SystemPackage
import Testing
import TestSupport

/// The photo list after changes in its folders, each file looked at for what it is now.
@Suite struct PhotoListUpdateTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func path(_ name: String) -> FilePath { FilePath(folder.path + "/" + name) }

    /// A file `name` (a JPEG's first bytes) last written `minute` minutes into a day.
    @discardableResult
    func file(_ name: String, minute: Double) throws -> Photo {
        let p = path(name)
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: URL(fileURLWithPath: p.string))
        let time = 1_709_287_200 + minute * 60
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: p.string)
        return Photo(file: p, date: PhotoDate(modified: time))
    }

    @Test func aNewPhotoTakesItsPlaceByDateAndAGoneOneLeaves() throws {
        let old = [try file("a.jpg", minute: 0), try file("b.jpg", minute: 1), try file("c.jpg", minute: 2)]
        try file("new.jpg", minute: 1.5)
        try FileManager.default.removeItem(atPath: path("a.jpg").string)
        let update = PhotoListUpdate(old, changes: FolderWatcher.Changes(touched: [path("a.jpg"), path("new.jpg")]), isTimeline: true)
        #expect(update.photos.map(\.name) == ["b.jpg", "new.jpg", "c.jpg"])
        #expect(update.origins == [1, nil, 2])
        #expect(update.changesList && update.rewritten.isEmpty)
    }

    @Test func theLastPhotosGoneAreAChange() throws {
        let old = [try file("a.jpg", minute: 0), try file("b.jpg", minute: 1)]
        for name in ["a.jpg", "b.jpg"] { try FileManager.default.removeItem(atPath: path(name).string) }
        let update = PhotoListUpdate(old, changes: FolderWatcher.Changes(touched: [path("a.jpg"), path("b.jpg")]), isTimeline: true)
        #expect(update.photos.isEmpty && update.origins.isEmpty && update.changesList)
    }

    @Test func aRenamedPhotoKeepsItsPlaceAndItsDate() throws {
        let old = [try file("a.jpg", minute: 0), try file("b.jpg", minute: 1), try file("c.jpg", minute: 2)]
        #expect(rename(path("a.jpg").string, path("zz.jpg").string) == 0)
        let update = PhotoListUpdate(old, changes: FolderWatcher.Changes(touched: [path("a.jpg"), path("zz.jpg")],
                                                                         renamed: [path("a.jpg"): path("zz.jpg")]), isTimeline: true)
        #expect(update.photos.map(\.name) == ["zz.jpg", "b.jpg", "c.jpg"])
        #expect(update.photos[0].date == old[0].date)
        #expect(update.origins == [0, 1, 2] && update.changesList)
    }

    @Test func aPhotoWrittenOverStaysAndIsToldAsRewritten() throws {
        let old = [try file("a.jpg", minute: 0), try file("b.jpg", minute: 1)]
        try file("b.jpg", minute: 5)
        let update = PhotoListUpdate(old, changes: FolderWatcher.Changes(touched: [path("b.jpg")]), isTimeline: true)
        #expect(update.photos == old && update.rewritten == [1] && !update.changesList)
    }

    @Test func hiddenFilesAndOtherFilesAreNotPhotosAndAFolderByNameKeepsItsOrder() throws {
        let old = [try file("IMG_2.jpg", minute: 0), try file("IMG_10.jpg", minute: 1)]
        try file(".IMG_3.jpg.part", minute: 2)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path("notes.txt").string))
        try file("IMG_3.jpg", minute: 3)
        let update = PhotoListUpdate(old.map { Photo(file: $0.file) },
                                     changes: FolderWatcher.Changes(touched: [path(".IMG_3.jpg.part"), path("notes.txt"), path("IMG_3.jpg")]),
                                     isTimeline: false)
        #expect(update.photos.map(\.name) == ["IMG_2.jpg", "IMG_3.jpg", "IMG_10.jpg"], "a file manager's order: by number")
        #expect(update.photos[1].date == nil)
    }

    @Test func aNewFileNamedAsAPhotoThatCannotBeOneIsOneLine() throws {
        let old = [try file("a.jpg", minute: 0)]
        #expect(symlink(folder.path + "/nowhere", path("link.jpg").string) == 0)
        let update = PhotoListUpdate(old, changes: FolderWatcher.Changes(touched: [path("link.jpg")]), isTimeline: true)
        #expect(update.photos == old && !update.changesList)
        #expect(update.problems.count == 1 && update.problems[0].contains("link.jpg"), "\(update.problems)")
    }
}
