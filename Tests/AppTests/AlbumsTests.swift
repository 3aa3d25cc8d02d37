import Animation
import Foundation
import Geometry
import Input
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// The Albums tab over a tree of real files (a photo in the opened folder, three folders of photos, dated
/// so that their days interleave), driven as a user drives it: the tab tapped, a cover tapped, a photo
/// opened and paged in the album, and back by the button, Escape, the tab and a swipe from the left edge.
@Suite struct AlbumsTests {
    let clock = ManualClock(fps: 60)
    let tree: TemporaryFolder
    let app: PhotoViewerApp
    /// Each album's photos, by folder name, oldest first.
    let made: [String: [String]]

    init() throws {
        tree = try TemporaryFolder()
        let sources = ["chelsea.png", "coffee.png", "grace_hopper.jpg"].map { TestImages.bundledFolder + "/" + $0 }
        let folders = ["": 1, "Trip 10": 3, "Trip 2": 5, "beach": 2]
        var photos: [Photo] = [], made: [String: [String]] = [:]
        var k = 0
        for (folder, count) in folders.sorted(by: { $0.key < $1.key }) {
            for n in 0..<count {
                let name = (folder.isEmpty ? "" : folder + "/") + "photo\(n).png"
                let path = try tree.copy(sources[k % sources.count], as: name)
                // A day apart per photo, the folders' days interleaved.
                let day = Double(n * 4 + k % 4)
                photos.append(Photo(file: FilePath(path), date: PhotoDate(instant: 1_700_000_000 + day * 86_400,
                                                                         wallClock: 1_700_000_000 + Int64(day) * 86_400, isCaptureTime: true)))
                made[folder, default: []].append(path)
                k += 1
            }
        }
        photos.sort { $0.date!.instant < $1.date!.instant }
        self.made = made
        app = PhotoViewerApp(photos: photos, size: Size(width: 400, height: 600), emptyMessage: "",
                             queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock)
        app.settle(stepping: clock)
    }

    func tap(_ point: Point) {
        _ = app.handle(.pointerDown(at: point, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: point, button: 1, time: clock.now))
        app.settle(stepping: clock)
    }

    func key(_ name: String) {
        _ = app.handle(.key(name: name, modifiers: []))
        app.settle(stepping: clock)
    }

    var albumsTab: Point { Point(x: 200, y: 580) }
    func caption(_ i: Int) -> String? { app.root.descendant(named: "cell.\(i).caption.title")?.text?.string }
    func count(_ i: Int) -> String? { app.root.descendant(named: "cell.\(i).caption.count")?.text?.string }
    var title: String? { app.root.descendant(named: "titleBar.title")?.text?.string }

    @Test func theTabShowsACoverForEachFolderWithItsNewestPhoto() {
        tap(albumsTab)
        #expect(app.grid.bars.shownTab == .albums && app.grid.showsCovers && title == "Albums")
        let root = tree.url.lastPathComponent
        #expect((0..<4).map(caption) == [root, "beach", "Trip 2", "Trip 10"], "the opened folder first, then by name as read")
        #expect((0..<4).map(count) == ["1 photo", "2 photos", "5 photos", "3 photos"])
        #expect(app.photos.map(\.path) == ["", "beach", "Trip 2", "Trip 10"].map { made[$0]!.last! }, "each cover its newest photo")
        #expect(app.grid.layout.columns == 2, "covers are larger than photos: two columns on a phone")
        #expect(app.root.descendant(named: "titleBar.count")?.text?.string == "4 albums")
        #expect((0..<4).allSatisfy { app.grid.picture(at: $0) != nil }, "every cover shows its photo")
    }

    @Test func aCoverPushesItsAlbumWhereAPhotoOpensAndPagesAmongItsPhotos() throws {
        tap(albumsTab)
        let cover = app.cellFrame(2)
        _ = app.handle(.pointerDown(at: cover.center, button: 1, time: clock.now))
        _ = app.handle(.pointerUp(at: cover.center, button: 1, time: clock.now))
        #expect(app.viewer == nil, "a cover opens its album, not a photo")
        clock.advanceFrame()
        app.tick()
        let leaving = try #require(app.root.descendant(named: "grid.leaving"), "the covers move aside under the album")
        #expect(leaving.transform.tx < 0 && app.cellFrame(0).minX > 0, "the album comes in from the right")
        app.settle(stepping: clock)
        #expect(app.root.descendant(named: "grid.leaving") == nil && app.cellFrame(0).minX == 0)
        #expect(app.photos.map(\.path) == made["Trip 2"], "the album: its folder's photos, oldest first")
        #expect(title == "Trip 2" && app.root.descendant(named: "titleBar.back")?.isHidden == false)
        #expect(!app.grid.showsCovers && app.grid.layout.columns == 4 && app.grid.sectionTitles.count == 5)

        tap(app.cellFrame(3).center)
        let viewer = try #require(app.viewer)
        #expect(viewer.count == 5 && viewer.photoName == "photo3.png")
        for _ in 0..<4 { key("Left") }
        #expect(app.viewer?.index == 0, "the album's oldest photo is the first page")
        key("Escape")
        #expect(app.viewer == nil && title == "Trip 2", "the photo flies into the album's grid")
        key("Escape")
        #expect(app.grid.showsCovers && title == "Albums", "Escape again: the covers")
    }

    @Test func backTheButtonTheTabAndASwipeFromTheLeftEdge() {
        tap(albumsTab)
        tap(app.cellFrame(1).center)
        #expect(title == "beach")
        tap(Point(x: 30, y: 28))
        #expect(app.grid.showsCovers, "the back button")

        tap(app.cellFrame(1).center)
        tap(albumsTab)
        #expect(app.grid.showsCovers, "the Albums tab tapped again")

        tap(app.cellFrame(3).center)
        #expect(title == "Trip 10")
        var t = clock.now
        _ = app.handle(.pointerDown(at: Point(x: 4, y: 300), button: 1, time: t))
        for x in stride(from: 24.0, through: 204, by: 20) {
            t += 1 / 60
            _ = app.handle(.pointerMove(to: Point(x: x, y: 302), time: t))
        }
        _ = app.handle(.pointerUp(at: Point(x: 204, y: 302), button: 1, time: t))
        app.settle(stepping: clock)
        #expect(app.grid.showsCovers && title == "Albums", "a swipe from the left edge")
        #expect(app.viewer == nil)
    }

    @Test func anotherTabShowsTheWholeLibraryAgain() {
        tap(albumsTab)
        tap(app.cellFrame(2).center)
        tap(Point(x: 60, y: 580))
        #expect(app.grid.bars.shownTab == .library && !app.grid.showsCovers && app.photos.count == 11 && title == "Photos")
        #expect(app.root.descendant(named: "titleBar.back")?.isHidden == true)
        #expect(app.grid.scrollOffset == app.grid.scrolling.range.upperBound, "at its newest, as a library opens")
        tap(albumsTab)
        tap(Point(x: 340, y: 580))
        #expect(app.grid.bars.shownTab == .search && app.photos.count == 11)
    }

    /// Pinching the covers changes nothing: they keep their size.
    @Test func coversKeepTheirSize() {
        tap(albumsTab)
        _ = app.handle(.scroll(dx: 0, dy: 3, unit: .notches, at: Point(x: 200, y: 300), modifiers: [.control]))
        app.settle(stepping: clock)
        #expect(app.grid.layout.columns == 2)
    }

    /// Files come and go while the covers show: the counts and covers follow, a new folder is a new album;
    /// in an open album, only its own folder's new photos join it.
    @Test func theAlbumsFollowTheirFolders() throws {
        tap(albumsTab)
        let added = try tree.copy(TestImages.bundledFolder + "/coffee.png", as: "beach/new.png")
        let removed = made["Trip 10"]![0]
        try FileManager.default.removeItem(atPath: removed)
        let folder = try tree.copy(TestImages.bundledFolder + "/chelsea.png", as: "Zoo/cat.png")
        app.filesChanged(.init(touched: [FilePath(added), FilePath(removed), FilePath(folder).removingLastComponent(), FilePath(folder)],
                               folders: [FilePath(folder).removingLastComponent()]))
        app.settle(stepping: clock)
        #expect((0..<5).map(caption) == [tree.url.lastPathComponent, "beach", "Trip 2", "Trip 10", "Zoo"])
        #expect((0..<5).map(count) == ["1 photo", "3 photos", "5 photos", "2 photos", "1 photo"])
        #expect(app.photos[1].path == added, "the new photo, the newest of its folder, is its cover")

        tap(app.cellFrame(1).center)
        #expect(title == "beach" && app.photos.count == 3)
        let inAlbum = try tree.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "beach/newer.jpg")
        let elsewhere = try tree.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "Trip 2/other.jpg")
        app.filesChanged(.init(touched: [FilePath(inAlbum), FilePath(elsewhere)]))
        app.settle(stepping: clock)
        #expect(app.photos.map(\.path).last == inAlbum && app.photos.count == 4, "only the album's folder's photo joins it")
        #expect(title == "beach")
    }
}
