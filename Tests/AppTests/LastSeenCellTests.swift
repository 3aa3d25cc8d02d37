import Animation
import Geometry
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport
@testable import App

/// Cells shown at launch as the last launch left them (`PhotoViewerApp.showLastSeen`): a crop of the
/// photo, so none flies out of one; a tap on it opens the photo once its thumbnail is in.
@Suite struct LastSeenCellTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    init() {
        app = PhotoViewerApp(photos: PhotoLibrary.photos(inFolder: FilePath(TestImages.bundledFolder)).photos, size: Size(width: 640, height: 480),
                             emptyMessage: "", queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
    }

    @Test func aTapOnACellAsLastSeenOpensItsPhotoOnceItsThumbnailIsIn() throws {
        let frame = app.cellFrame(1)
        let lastSeen = PixelImage(width: Int(frame.width), height: Int(frame.height), isOpaque: true)
        app.showLastSeen([1: lastSeen])
        #expect(app.grid.cell(at: 1).image === lastSeen && app.grid.picture(at: 1) == nil)
        #expect(app.firstScreenPhotos.count >= 8 && app.firstScreenShown == nil, "the first screen is not its own yet")

        _ = app.handle(.pointerDown(at: frame.center, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: frame.center, button: 1, time: 1.05))
        for _ in 0..<20 { clock.advanceFrame(); app.tick() }
        #expect(app.viewer == nil, "nothing flies out of the cell's pixels")

        app.waitForLoads()
        #expect(app.grid.picture(at: 1) != nil && app.grid.picture(at: 1) !== lastSeen, "its thumbnail replaced them")
        #expect(app.viewer != nil && app.isAnimating, "the photo flies now")
        let flying = try #require(app.root.descendant(named: "transitionImage")?.image)
        #expect(flying !== lastSeen)
        app.settle(stepping: clock)
        #expect(app.viewer?.photoName == app.photos[1].name)
    }

    /// Once every cell of the first screen shows its own thumbnail, at rest at the top, the app gives
    /// them for the next launch; not while it is scrolled.
    @Test func theFirstScreenIsGivenOnceItShowsItsOwnThumbnails() throws {
        app.settle(stepping: clock)
        let cells = try #require(app.firstScreenShown)
        #expect(cells.map(\.index) == Array(app.firstScreenPhotos.indices), "every cell, in order")
        #expect(cells.allSatisfy { $0.thumbnail === app.grid.picture(at: $0.index) && $0.frame == app.grid.cell(at: $0.index).frame })
        _ = app.handle(.scroll(dx: 0, dy: 3, unit: .notches, at: Point(x: 320, y: 240), modifiers: []))
        app.settle(stepping: clock)
        #expect(app.grid.scrollOffset > 0 && app.firstScreenShown == nil)
    }
}
