import Animation
import Foundation
import Geometry
import Input
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// Favorites: `.` or the heart on the viewer's bar marks the open photo (the heart fills, its grid cell
/// gets one), and the mark is kept for the next launch in the user's data folder.
@Suite struct FavoritesTests {
    let clock = ManualClock(fps: 60)
    let data: TemporaryFolder
    var file: FilePath { FilePath(data.path + "/photozoom/favorites.sqlite") }

    init() throws { data = try TemporaryFolder() }

    func launch() -> PhotoViewerApp {
        let photos = PhotoLibrary.photos(inFolder: FilePath(TestImages.bundledFolder)).photos
        let app = PhotoViewerApp(photos: photos, size: Size(width: 500, height: 700), emptyMessage: "",
                                 queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock,
                                 favorites: Favorites(file: file) { Issue.record("\($0)") })
        app.settle(stepping: clock)
        return app
    }

    func tap(_ app: PhotoViewerApp, _ p: Point) {
        _ = app.handle(.pointerDown(at: p, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: p, button: 1, time: clock.now))
        app.settle(stepping: clock)
    }

    func heart(_ app: PhotoViewerApp) -> String? { app.root.descendant(named: "viewer.favorite")?.text?.string }

    @Test func aFavoriteIsMarkedOnItsBarAndCellAndKeptForTheNextLaunch() throws {
        let app = launch()
        #expect(!FileManager.default.fileExists(atPath: file.string), "nothing written before a mark")
        tap(app, app.cellFrame(2).center)
        #expect(heart(app) == "♡")
        _ = app.handle(.key(name: "period", modifiers: []))
        #expect(heart(app) == "♥")
        #expect(app.grid.isMarkedFavorite(2))
        _ = app.handle(.key(name: "Escape", modifiers: []))
        app.settle(stepping: clock)
        #expect(app.root.descendant(named: "cell.2.favorite") != nil, "the cell shows the heart")

        let next = launch()
        #expect(next.grid.isMarkedFavorite(2) && !next.grid.isMarkedFavorite(1), "kept for the next launch")
        tap(next, next.cellFrame(2).center)
        _ = next.handle(.key(name: "period", modifiers: []))
        #expect(heart(next) == "♡" && !next.grid.isMarkedFavorite(2))
        #expect(!launch().grid.isMarkedFavorite(2), "unmarked for good")
    }

    /// A tap on the heart marks the photo, and does not hide the bars as a tap on the photo does.
    @Test func theHeartOnTheBarIsAButton() throws {
        let app = launch()
        tap(app, app.cellFrame(0).center)
        let button = try #require(app.root.descendant(named: "viewer.favorite"))
        tap(app, button.convert(button.bounds, to: nil).center)
        #expect(heart(app) == "♥" && app.grid.isMarkedFavorite(0))
        #expect(app.viewer?.barsVisible == true)
        // The next page's heart is its own.
        _ = app.handle(.key(name: "Right", modifiers: []))
        app.settle(stepping: clock)
        #expect(heart(app) == "♡")
    }
}
