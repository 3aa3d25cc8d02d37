import Foundation
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport

/// A Live Photo as an iPhone exports it, a still and its movie of the same name: one item, the still, carrying its
/// movie, in a folder's listing, a tree's timeline and a movie that arrives after its still; a movie alone is a clip.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct LivePhotosTests {
    let folder = try! TemporaryFolder()

    /// IMG_0042.JPG with IMG_0042.MOV, and a movie of its own, IMG_0050.MOV.
    func camera() throws -> (still: String, movie: String, alone: String) {
        let still = try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "IMG_0042.JPG")
        let made = try TestClips.make([.upright, .silent], in: folder)
        let movie = folder.path + "/IMG_0042.MOV", alone = folder.path + "/IMG_0050.MOV"
        try FileManager.default.moveItem(atPath: made[.upright]!, toPath: movie)
        try FileManager.default.moveItem(atPath: made[.silent]!, toPath: alone)
        return (still, movie, alone)
    }

    @Test func aStillAndItsMovieAreOneItemInAFoldersListing() throws {
        let (still, movie, alone) = try camera()
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        #expect(photos.map(\.name) == ["IMG_0042.JPG", "IMG_0050.MOV"])
        #expect(photos.first { $0.file == FilePath(still) }?.motion == FilePath(movie))
        #expect(photos.first { $0.file == FilePath(alone) }?.motion == nil, "a movie alone is a clip of its own")
    }

    @Test func andInATreesTimeline() throws {
        let (still, movie, _) = try camera()
        let photos = PhotoLibrary.collect([FilePath(folder.path)]).photos
        #expect(photos.count == 2 && !photos.contains { $0.file == FilePath(movie) })
        #expect(photos.first { $0.file == FilePath(still) }?.motion == FilePath(movie))
    }

    @Test func theNamesCaseDoesNotMatterButTheFolderDoes() throws {
        let still = try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "img_0007.heic")
        let photos = [Photo(file: FilePath(still)), Photo(file: FilePath(folder.path + "/IMG_0007.mov")),
                      Photo(file: FilePath(folder.path + "/other/img_0007.MOV"))]
        let joined = LivePhotos.joined(photos)
        #expect(joined.map(\.file) == [FilePath(still), FilePath(folder.path + "/other/img_0007.MOV")])
        #expect(joined[0].motion == FilePath(folder.path + "/IMG_0007.mov"))
    }

    /// Renamed apart (an edited still, an export that numbered the movie), a still and its movie are still one: by the
    /// ContentIdentifier both carry (the still's Apple maker's note, as exiftool reads it; the movie's QuickTime key).
    /// Another identifier leaves a movie on its own.
    @Test func aStillAndAMovieOfOneContentIdentifierAreOneThoughTheirNamesDiffer() throws {
        let id = "5A1E6D6C-3F2B-4C1E-9A47-0C2B8D1E4F10"
        try AppleLivePhoto.make(still: "IMG_E0042.JPG", movie: "IMG_0042 (2).MOV", identifier: id, in: folder)
        try AppleLivePhoto.make(still: "sunset.jpg", movie: nil, identifier: "another", in: folder)
        try AppleLivePhoto.make(still: nil, movie: "IMG_0100.MOV", identifier: "a third", in: folder)
        // An independent reader of both: exiftool.
        let still = try DesktopTools.run("exiftool", ["-s3", "-MediaGroupUUID", "-ContentIdentifier", folder.path + "/IMG_E0042.JPG"]).output
        #expect(String(decoding: still, as: UTF8.self).contains(id), "exiftool reads the still's identifier")
        let movie = try DesktopTools.run("exiftool", ["-s3", "-ContentIdentifier", folder.path + "/IMG_0042 (2).MOV"]).output
        #expect(String(decoding: movie, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == id)
        #expect(PhotoFacts.read(path: FilePath(folder.path + "/IMG_E0042.JPG"))?.contentIdentifier == id)
        #expect(PhotoFacts.read(path: FilePath(folder.path + "/IMG_0042 (2).MOV"))?.contentIdentifier == id)
        let photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        #expect(Set(photos.map(\.name)) == ["IMG_E0042.JPG", "sunset.jpg", "IMG_0100.MOV"], "\(photos.map(\.name))")
        #expect(photos.first { $0.name == "IMG_E0042.JPG" }?.motion == FilePath(folder.path + "/IMG_0042 (2).MOV"))
        #expect(photos.first { $0.name == "sunset.jpg" }?.motion == nil, "its identifier is another movie's")
    }

    /// Copied in one after the other, as a phone's import or a sync does: a movie arriving after its still (by name, or
    /// renamed apart by its ContentIdentifier) is the still's; a still arriving after its movie, listed by then as a clip
    /// of its own, takes it out of the list.
    @Test func aPairCopiedInOneFileAtATimeBecomesOneItem() throws {
        try AppleLivePhoto.make(still: "IMG_0001.JPG", movie: nil, identifier: "first", in: folder)
        try AppleLivePhoto.make(still: "IMG_E0002.JPG", movie: nil, identifier: "second", in: folder)
        var photos = PhotoLibrary.photos(inFolder: FilePath(folder.path)).photos
        func arrive(_ names: [String]) {
            let touched = Set(names.map { FilePath(folder.path + "/" + $0) })
            photos = PhotoListUpdate(photos, changes: FolderWatcher.Changes(touched: touched), isTimeline: false).photos
        }
        try AppleLivePhoto.make(still: nil, movie: "IMG_0001.MOV", identifier: "first", in: folder)
        try AppleLivePhoto.make(still: nil, movie: "IMG_0002 (1).MOV", identifier: "second", in: folder)
        arrive(["IMG_0001.MOV", "IMG_0002 (1).MOV"])
        #expect(Set(photos.map(\.name)) == ["IMG_0001.JPG", "IMG_E0002.JPG"], "\(photos.map(\.name))")
        #expect(photos.first { $0.name == "IMG_0001.JPG" }?.motion?.lastComponent?.string == "IMG_0001.MOV")
        #expect(photos.first { $0.name == "IMG_E0002.JPG" }?.motion?.lastComponent?.string == "IMG_0002 (1).MOV", "by its identifier")

        try AppleLivePhoto.make(still: nil, movie: "IMG_0003.MOV", identifier: "third", in: folder)
        try AppleLivePhoto.make(still: nil, movie: "IMG_0004.MOV", identifier: "fourth", in: folder)
        arrive(["IMG_0003.MOV", "IMG_0004.MOV"])
        #expect(photos.count == 4, "movies alone, for now: clips")
        try AppleLivePhoto.make(still: "IMG_0003.HEIC.jpg", movie: nil, identifier: "third", in: folder)
        try AppleLivePhoto.make(still: "IMG_0004.JPG", movie: nil, identifier: "none of theirs", in: folder)
        arrive(["IMG_0003.HEIC.jpg", "IMG_0004.JPG"])
        #expect(Set(photos.map(\.name)) == ["IMG_0001.JPG", "IMG_E0002.JPG", "IMG_0003.HEIC.jpg", "IMG_0004.JPG"], "\(photos.map(\.name))")
        #expect(photos.first { $0.name == "IMG_0003.HEIC.jpg" }?.motion?.lastComponent?.string == "IMG_0003.MOV", "by its identifier")
        #expect(photos.first { $0.name == "IMG_0004.JPG" }?.motion?.lastComponent?.string == "IMG_0004.MOV", "by its name")

        // A pair's movie written again (turned) is still its still's, which is read again; gone, the still is a photo.
        let before = photos
        let turned = PhotoListUpdate(photos, changes: FolderWatcher.Changes(touched: [FilePath(folder.path + "/IMG_0001.MOV")]), isTimeline: false)
        let still = try #require(before.firstIndex { $0.name == "IMG_0001.JPG" })
        #expect(turned.photos == before && turned.rewritten == [still])
        try FileManager.default.removeItem(atPath: folder.path + "/IMG_0001.MOV")
        arrive(["IMG_0001.MOV"])
        #expect(photos.count == 4 && photos[still].name == "IMG_0001.JPG" && photos[still].motion == nil)
    }
}
