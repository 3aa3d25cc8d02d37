import Library
import Animation
import Foundation
import Geometry
import Input
import Testing
import TestSupport
@testable import App

@Suite struct PhotoLibraryTests {
    @Test func folderGivesItsImagesSortedByNameAsAFileManagerDoes() throws {
        let folder = try TemporaryFolder()
        let jpeg = TestImages.repository.appendingPathComponent("Images/grace_hopper.jpg").path
        for name in ["IMG_10.jpg", "img_2.JPG", "IMG_1.jpeg", "b.png", "a.webp"] { try folder.write(name, [1]) }
        try folder.copy(jpeg, as: "no-extension")           // a JPEG by content
        try folder.write("notes.txt", Array("hello".utf8))   // neither
        try folder.write(".hidden.jpg", [1])
        try folder.write("sub/inner.jpg", [1])

        let (photos, problems) = PhotoLibrary.collect([folder.path])
        #expect(problems.isEmpty)
        #expect(photos.map(\.name) == ["a.webp", "b.png", "IMG_1.jpeg", "img_2.JPG", "IMG_10.jpg", "no-extension"])
    }

    @Test func filesAndFileURIsAreTakenAsGiven() throws {
        let folder = try TemporaryFolder()
        let spaced = try folder.write("my photo.png", [1])
        let uri = URL(fileURLWithPath: spaced).absoluteString
        #expect(uri.contains("%20"))
        let (photos, problems) = PhotoLibrary.collect([uri, spaced])
        #expect(problems.isEmpty)
        #expect(photos.map(\.path) == [spaced, spaced])
    }

    @Test func missingPathIsOneProblemLine() {
        let (photos, problems) = PhotoLibrary.collect(["/nonexistent/photo.jpg"])
        #expect(photos.isEmpty)
        #expect(problems == ["/nonexistent/photo.jpg: no such file or folder"])
    }

    @Test func bundledPhotosAreFoundFromACheckoutAndFromAnInstalledCopy() throws {
        let found = try #require(BundledPhotos.folder())
        #expect(FileManager.default.fileExists(atPath: found + "/CREDITS.md"))

        let prefix = try TemporaryFolder()
        let executable = try prefix.write("bin/photozoom", [0])
        try prefix.write("share/photozoom/Images/CREDITS.md", Array("credits".utf8))
        #expect(BundledPhotos.folder(executable: executable) == prefix.url.appendingPathComponent("share/photozoom/Images").path)
    }
}

@Suite struct OpenOnePhotoTests {
    @Test func oneFileOnItsOwnGivesItsFolderAndWhereItIs() throws {
        let folder = try TemporaryFolder()
        for name in ["c.png", "a.png", "b.jpg"] { try folder.write(name, [1]) }
        try folder.write("notes.txt", Array("hello".utf8))
        let around = try #require(PhotoLibrary.folder(around: URL(fileURLWithPath: folder.path + "/b.jpg").absoluteString))
        #expect(around.photos.map(\.name) == ["a.png", "b.jpg", "c.png"])
        #expect(around.opening == 1)
        #expect(PhotoLibrary.folder(around: folder.path) == nil, "a folder is a grid")
        #expect(PhotoLibrary.folder(around: folder.path + "/missing.jpg") == nil)
        #expect(PhotoLibrary.folder(around: folder.path + "/notes.txt") == nil, "not a photo of its folder: shown as given")
    }

    @Test func thePhotoOpensInTheViewerWithoutAFlightAndEscapeFliesItIntoItsFoldersGrid() throws {
        let around = try #require(PhotoLibrary.folder(around: TestImages.bundledFolder + "/life_by_Aitzol_Berasategi.jpg"))
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 500, height: 400), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.openWhenLoaded(around.opening)
        #expect(!app.isSettled, "waits for the photo")
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer)
        #expect(viewer.photoName == "life_by_Aitzol_Berasategi.jpg")
        #expect(app.root.descendant(named: "transitionImage") == nil)
        #expect(viewer.root.alpha == 1 && app.grid.tabBar.alpha == 0)
        #expect(app.timesShown(viewer.photoName) == 1)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
        let cell = app.cellFrame(around.opening)
        #expect(cell.minY >= 56 && cell.maxY <= 400 - 56, "its cell is in view, clear of the bars: \(cell)")
    }

    @Test func aPhotoThatCannotBeReadStaysAWarningCellInTheGrid() throws {
        let folder = try TemporaryFolder()
        try folder.write("broken.jpg", Array("not a picture".utf8))
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "cat.png")
        let around = try #require(PhotoLibrary.folder(around: folder.path + "/broken.jpg"))
        let log = CapturedLog()
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock, logger: log.logger)
        app.openWhenLoaded(around.opening)
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
        #expect(app.isSettled)
        #expect(log.messages.count == 1 && log.messages[0].contains("broken.jpg"), "\(log.messages)")
    }
}
