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
}
