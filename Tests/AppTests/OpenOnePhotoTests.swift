import Library
import Animation
import Foundation
import Geometry
import Imaging
import Input
import Rendering
import Testing
import TestSupport
import SystemPackage
@testable import App

@Suite struct OpenOnePhotoTests {
    @Test func oneFileOnItsOwnGivesItsFolderAndWhereItIs() throws {
        let folder = try TemporaryFolder()
        for name in ["c.png", "a.png", "b.jpg"] { try folder.write(name, [1]) }
        try folder.write("notes.txt", Array("hello".utf8))
        let around = try #require(PhotoLibrary.folder(around: PhotoLibrary.localPath(URL(fileURLWithPath: folder.path + "/b.jpg").absoluteString)))
        #expect(around.photos.map(\.name) == ["a.png", "b.jpg", "c.png"])
        #expect(around.opening == 1)
        #expect(PhotoLibrary.folder(around: FilePath(folder.path)) == nil, "a folder is a grid")
        #expect(PhotoLibrary.folder(around: FilePath(folder.path + "/missing.jpg")) == nil)
        #expect(PhotoLibrary.folder(around: FilePath(folder.path + "/notes.txt")) == nil, "not a photo of its folder: shown as given")
    }

    @Test func thePhotoOpensInTheViewerWithoutAFlightAndEscapeFliesItIntoItsFoldersGrid() throws {
        let around = try #require(PhotoLibrary.folder(around: FilePath(TestImages.bundledFolder + "/life_by_Aitzol_Berasategi.jpg")))
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 500, height: 400), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.openWhenLoaded(around.opening)
        #expect(!app.isSettled, "waits for the photo")
        #expect(try Self.isBlack(app), "the window is the viewer's black until the photo is in: no grid shows first")
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer)
        #expect(viewer.photoName == "life_by_Aitzol_Berasategi.jpg")
        #expect(app.root.descendant(named: "transitionImage") == nil)
        #expect(viewer.root.alpha == 1 && app.grid.bars.tabBar.alpha == 0)
        #expect(app.timesShown(viewer.photoName) == 1)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
        let cell = app.cellFrame(around.opening)
        #expect(cell.minY >= 56 && cell.maxY <= 400 - 56, "its cell is in view, clear of the bars: \(cell)")
    }

    /// A photo passed on its own is decoded at the size it is shown in the window, its shape as its first bytes
    /// state it (turned by its EXIF orientation), not at the window's size: in a 500x400 window a 3:2 photo
    /// needs 500x334 px, and the upright one its orientation turns the same (unturned it would be 267x400).
    @Test(arguments: ["life_by_Aitzol_Berasategi.jpg", "sunset_orient6_by_Aitzol_Berasategi.jpg"])
    func aPhotoOnItsOwnIsDecodedAtTheSizeItIsShown(name: String) throws {
        let around = try #require(PhotoLibrary.folder(around: FilePath(TestImages.bundledFolder + "/" + name)))
        let asked = AskedSizes()
        let clock = ManualClock()
        // The grid's thumbnails go through a cache of their own: `decode` hears the viewer's decodes alone (a cell's
        // 180x180, asked at the same moment, came first on a loaded machine).
        let cache = try TemporaryFolder()
        let queue = DecodeQueue(decode: { path, size throws(ImageDecodeError) in
            if path.lastComponent?.string == name, let size { asked.append(PixelSize(width: size.width, height: size.height)) }
            return try TestDecoders.memoizing(path, size)
        }, thumbnails: ThumbnailCache(root: cache.path))
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 500, height: 400), emptyMessage: "", queue: queue, clock: clock)
        app.openWhenLoaded(around.opening)
        app.settle(stepping: clock)
        let viewer = try #require(app.viewer)
        #expect(viewer.photoName == name)
        let sizes = asked.sizes
        let first = try #require(sizes.first)
        #expect(abs(first.width - 500) <= 1 && abs(first.height - 334) <= 1, "\(sizes)")
        #expect(sizes.allSatisfy { $0.width * $0.height <= first.width * first.height }, "nothing larger was asked: \(sizes)")
    }

    /// A camera's photo whose embedded thumbnail is shown while it decodes: the thumbnail's shape gives the fit
    /// (500x375 in 500x400), and the decode asked for is that size, not a pixel more from the fit's rounding
    /// (240 x 500/240 is 500.00000000000006): a second decode, one pixel wider, was drawn a little differently.
    @Test func aThumbnailShownWhileThePhotoDecodesAsksForNoOtherSize() throws {
        let folder = try TemporaryFolder()
        try folder.write("camera.jpg", CameraJPEG.bytes(photo: TestImages.solid(width: 800, height: 600, argb: 0xFF80_8080),
                                                        thumbnail: CameraJPEG.quadrants(width: 240, height: 180)))
        let around = try #require(PhotoLibrary.folder(around: FilePath(folder.path + "/camera.jpg")))
        let asked = AskedSizes()
        let thumbnailShown = DispatchSemaphore(value: 0)
        let queue = DecodeQueue(threads: 2, decode: { path, size throws(ImageDecodeError) in
            if let size, size.width > 240 {
                asked.append(PixelSize(width: size.width, height: size.height))
                if asked.sizes.count == 1 { thumbnailShown.wait() }
            }
            return try TestDecoders.memoizing(path, size)
        })
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 500, height: 400), emptyMessage: "", queue: queue, clock: clock)
        app.openWhenLoaded(around.opening)
        for _ in 0..<600 where app.viewer?.image?.width != 240 {
            usleep(5_000)
            app.applyFinishedLoads()
            clock.advanceFrame()
            app.tick()
        }
        #expect(app.viewer?.image?.width == 240, "the thumbnail is shown while the photo decodes")
        thumbnailShown.signal()
        app.settle(stepping: clock)
        #expect(app.viewer?.image?.width == 500)
        #expect(asked.sizes == [PixelSize(width: 500, height: 375)])
    }

    /// Whether every pixel the window would show now is black.
    static func isBlack(_ app: PhotoViewerApp) throws -> Bool {
        let frame = try SceneRenderer().render(app.root, width: Int(app.size.width), height: Int(app.size.height))
        return (0..<frame.height).allSatisfy { y in (0..<frame.width).allSatisfy { x in frame.pixel(x: x, y: y) & 0xFF_FFFF == 0 } }
    }

    /// The sizes a test's decoder was asked for, in order.
    final class AskedSizes: @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [PixelSize] = []
        func append(_ size: PixelSize) { lock.withLock { asked.append(size) } }
        var sizes: [PixelSize] { lock.withLock { asked } }
    }

    @Test func aPhotoThatCannotBeReadStaysAWarningCellInTheGrid() throws {
        let folder = try TemporaryFolder()
        try folder.write("broken.jpg", Array("not a picture".utf8))
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "cat.png")
        let around = try #require(PhotoLibrary.folder(around: FilePath(folder.path + "/broken.jpg")))
        let log = CapturedLog()
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: around.photos, size: Size(width: 400, height: 300), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock, logger: log.logger)
        app.openWhenLoaded(around.opening)
        app.settle(stepping: clock)
        #expect(app.viewer == nil)
        #expect(app.isSettled)
        #expect(try !Self.isBlack(app), "the grid shows, with its ⚠ cell")
        #expect(log.messages.count == 1 && log.messages[0].contains("broken.jpg"), "\(log.messages)")
    }
}
