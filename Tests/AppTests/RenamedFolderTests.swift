import Animation
import Foundation
import Geometry
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// A folder renamed while its thumbnails were being made: a photo whose file went from under its decode shows a ⚠,
/// and once the rename is known it is read again under its new name and shows its thumbnail.
@Suite struct RenamedFolderTests {
    @Test func aThumbnailThatFailedAsItsFolderMovedIsMadeAgainUnderTheNewName() throws {
        let tree = try TemporaryFolder()
        let kept = try tree.copy(TestImages.bundledFolder + "/chelsea.png", as: "kept.png")
        let moving = try tree.copy(TestImages.bundledFolder + "/coffee.png", as: "album/coffee.png")
        // The album is renamed as its photo is read: that read finds no file.
        let (album, renamedFolder) = (tree.path + "/album", tree.path + "/renamed album")
        let queue = DecodeQueue(decode: { path, size throws(ImageDecodeError) in
            if path == FilePath(moving) {
                _ = rename(album, renamedFolder)
                throw .unreadable("no such file or folder")
            }
            return try TestDecoders.memoizing(path, size)
        })
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: [Photo(file: FilePath(kept)), Photo(file: FilePath(moving))], size: Size(width: 400, height: 300),
                                 emptyMessage: "", queue: queue, clock: clock)
        app.settle(stepping: clock)
        #expect(app.thumbnails.hasFailed(1), "the photo's file went as it was read")

        let moved = renamedFolder + "/coffee.png"
        app.filesChanged(FolderWatcher.Changes(touched: [FilePath(album), FilePath(renamedFolder)],
                                               renamed: [FilePath(album): FilePath(renamedFolder)],
                                               folders: [FilePath(album), FilePath(renamedFolder)]))
        app.settle(stepping: clock)
        let at = try #require(app.photos.firstIndex { $0.path == moved }, "\(app.photos.map(\.path))")
        #expect(!app.thumbnails.hasFailed(at))
        #expect(app.grid.picture(at: at) != nil, "its thumbnail shows under its new name")
    }
}
