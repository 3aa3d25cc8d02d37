import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// A folder that changes while the viewer is open, in a real window: a photo saved over (as an editor saves
/// it, a new file renamed over the old, and written in place) shows its new contents in the viewer and in
/// its grid cell; photos added, removed and renamed in a timeline's tree change the grid. Each state is
/// compared with a headless run that opened the files as they then were.
@Suite(.serialized) struct LiveFolderTests {
    /// Three photos, b.jpg second, with set times (the folder is a timeline by modification time).
    func folder(_ name: String, in scratch: URL, b: String) throws -> URL {
        let folder = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = TestImages.repository.appendingPathComponent("Images")
        for (i, (file, source)) in [("a.jpg", "grace_hopper.jpg"), ("b.jpg", b), ("c.jpg", "life_by_Aitzol_Berasategi.jpg")].enumerated() {
            let path = folder.appendingPathComponent(file).path
            try FileManager.default.copyItem(atPath: images.appendingPathComponent(source).path, toPath: path)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_709_287_200 + Double(i) * 60)],
                                                  ofItemAtPath: path)
        }
        return folder
    }

    /// What a headless run shows for `path` (a photo, opened in the viewer) after `script`.
    func headless(_ path: String, script: String, in scratch: URL, name: String) throws -> PixelImage {
        let scriptFile = scratch.appendingPathComponent("\(name).txt").path
        let shot = scratch.appendingPathComponent("\(name).png").path
        try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "400x500", "--script", scriptFile, "--screenshot", shot, path])
        #expect(status == 0, "\(errors)")
        return try ImageDecoder.decode(path: shot).image
    }

    @Test func aPhotoSavedOverShowsItsNewContentsInTheViewerAndInTheGrid() throws {
        let session = try WindowSession()
        let old = try folder("old", in: session.scratch, b: "Picture_1A_by_freespace.jpg")
        let new = try folder("new", in: session.scratch, b: "friends_by_Aitzol_Berasategi.jpg")
        let live = try folder("live", in: session.scratch, b: "Picture_1A_by_freespace.jpg")
        let toGrid = "key Escape\nwait 1500\n"
        let oldViewer = try headless(old.path + "/b.jpg", script: "wait 100\n", in: session.scratch, name: "old-viewer")
        let newViewer = try headless(new.path + "/b.jpg", script: "wait 100\n", in: session.scratch, name: "new-viewer")
        let newGrid = try headless(new.path + "/b.jpg", script: toGrid, in: session.scratch, name: "new-grid")
        let oldGrid = try headless(old.path + "/b.jpg", script: toGrid, in: session.scratch, name: "old-grid")
        #expect(PixelComparison(oldGrid, newGrid, channelTolerance: 1).differing > 0, "the two b.jpg look different in the grid")

        let (viewer, window) = try session.launch(["--size", "400x500", "--verbose", live.path + "/b.jpg"])
        try session.expectWindow(window, toShow: oldViewer)
        // An editor's save: the new contents written beside, then renamed over the photo.
        let b = live.appendingPathComponent("b.jpg").path, saving = live.appendingPathComponent(".b.jpg.saving").path
        let images = TestImages.repository.appendingPathComponent("Images")
        try FileManager.default.copyItem(atPath: images.appendingPathComponent("friends_by_Aitzol_Berasategi.jpg").path, toPath: saving)
        #expect(rename(saving, b) == 0)
        try session.expectWindow(window, toShow: newViewer)
        #expect(viewer.standardError.contains("b.jpg changed on disk: shown again"), "\(viewer.standardError)")

        session.client.movePointer(to: 200, 250)   // no window manager: keys go to the window under the pointer
        session.client.press(key: "Escape")
        try session.expectWindow(window, toShow: newGrid)
        // Written in place (truncated, then the old contents again), the grid open.
        try Data(contentsOf: images.appendingPathComponent("Picture_1A_by_freespace.jpg")).write(to: URL(fileURLWithPath: b))
        try session.expectWindow(window, toShow: oldGrid)
    }

    @Test func theOpenPhotoDeletedShowsTheNextRenamedKeepsItAndNoneLeftFliesHome() throws {
        let session = try WindowSession()
        let live = try folder("live", in: session.scratch, b: "Picture_1A_by_freespace.jpg")
        let copy = try folder("copy", in: session.scratch, b: "Picture_1A_by_freespace.jpg")
        // c.jpg as a page turned to from b.jpg shows it (decoded at another size: 1 % of the pixels may
        // differ by more than a quarter).
        let next = try headless(copy.path + "/b.jpg", script: "key Right\nwait 1000\n", in: session.scratch, name: "c")
        let (viewer, window) = try session.launch(["--size", "400x500", "--verbose", live.path + "/b.jpg"])
        func title() -> String { session.title(of: window) ?? "" }
        #expect(session.wait { title() == "b.jpg — Photos" }, "\(title())")
        #expect(unlink(live.appendingPathComponent("b.jpg").path) == 0)
        #expect(session.wait { title() == "c.jpg — Photos" }, "the next photo: \(title()) \(viewer.standardError)")
        try session.expectWindow(window, toShow: next, channelTolerance: 64, differing: 400 * 500 / 100)
        #expect(rename(live.appendingPathComponent("c.jpg").path, live.appendingPathComponent("d.jpg").path) == 0)
        #expect(session.wait { title() == "d.jpg — Photos" }, "renamed, still open: \(title())")
        for name in ["a.jpg", "d.jpg"] { #expect(unlink(live.appendingPathComponent(name).path) == 0) }
        #expect(session.wait { title() == "Photos — PhotoZoomAnimator" }, "none left: back in the grid: \(title())")
        #expect(session.wait { viewer.standardError.contains("the folder changed: 0 photos") }, "\(viewer.standardError)")
    }

    @Test func photosAddedRemovedAndRenamedInATreeChangeTheGridAsAFreshLaunchWouldShowIt() throws {
        let session = try WindowSession()
        let tree = session.scratch.appendingPathComponent("tree"), album = tree.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let images = TestImages.repository.appendingPathComponent("Images")
        /// A photo of the bundle copied in as `name`, its time `minute` minutes into a day: renamed into
        /// place from a hidden name (its time set first), as a copy that keeps times arrives.
        func arrive(_ source: String, as name: String, in folder: URL, minute: Double) throws {
            let hidden = folder.appendingPathComponent(".\(name).part").path
            try FileManager.default.copyItem(atPath: images.appendingPathComponent(source).path, toPath: hidden)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_709_287_200 + minute * 60)],
                                                  ofItemAtPath: hidden)
            #expect(rename(hidden, folder.appendingPathComponent(name).path) == 0)
        }
        try arrive("grace_hopper.jpg", as: "a.jpg", in: tree, minute: 0)
        try arrive("Picture_1A_by_freespace.jpg", as: "b.jpg", in: album, minute: 1)
        try arrive("life_by_Aitzol_Berasategi.jpg", as: "c.jpg", in: tree, minute: 2)
        try arrive("chelsea.png", as: "d.png", in: album, minute: 3)
        func freshLaunch(_ name: String) throws -> PixelImage {
            try headless(tree.path, script: "wait 100\n", in: session.scratch, name: name)
        }
        let before = try freshLaunch("before")
        let (viewer, window) = try session.launch(["--size", "400x500", "--verbose", tree.path])
        try session.expectWindow(window, toShow: before)

        try arrive("friends_by_Aitzol_Berasategi.jpg", as: "e.jpg", in: album, minute: 1.5)   // between b and c
        #expect(unlink(album.appendingPathComponent("b.jpg").path) == 0)
        #expect(rename(tree.appendingPathComponent("c.jpg").path, album.appendingPathComponent("z.jpg").path) == 0)
        #expect(session.wait { viewer.standardError.contains("the folder changed: 4 photos, 1 new, 1 gone, 1 renamed") }, "\(viewer.standardError)")
        // A camera import: a new folder, photos copied into it; and a folder renamed (its photos keep their places).
        let imported = tree.appendingPathComponent("import")
        try FileManager.default.createDirectory(at: imported, withIntermediateDirectories: false)
        try arrive("coffee.png", as: "f.png", in: imported, minute: 5)
        #expect(rename(album.path, tree.appendingPathComponent("renamed album").path) == 0)
        #expect(session.wait { viewer.standardError.contains("the folder changed: 5 photos, 1 new, 0 gone, 3 renamed") }, "\(viewer.standardError)")
        let after = try freshLaunch("after")
        #expect(PixelComparison(before, after, channelTolerance: 1).differing > 0)
        // The same photos in the same places: a cell that grew in may be drawn from a copy of its thumbnail at
        // another size (CI once saw one cell's pixels all differ, not reproduced here), a wrong or missing
        // photo differs by far more than a quarter, over a whole cell.
        try session.expectWindow(window, toShow: after, channelTolerance: 64, differing: 2000)
    }

    /// A tree the index knows opens as the index remembers it, before it is walked (a large library's first
    /// screen comes at once; here every tree is large enough, `PHOTOZOOM_INDEX_FIRST_FROM`); what changed since
    /// (a photo deleted, one added) comes as the live library's changes once the walk has found it, and the
    /// window then shows what a fresh launch on the tree shows.
    @Test func aTreeOpensAsTheIndexRemembersItAndTheWalkBringsWhatChangedSince() throws {
        let session = try WindowSession()
        let tree = session.scratch.appendingPathComponent("tree")
        _ = try folder("tree/one", in: session.scratch, b: "Picture_1A_by_freespace.jpg")
        _ = try folder("tree/two", in: session.scratch, b: "friends_by_Aitzol_Berasategi.jpg")
        let cache = try TemporaryFolder(), fresh = try TemporaryFolder()
        let indexing = try ViewerProcess.run(["--headless", "--size", "400x500", "--screenshot", cache.path + "/first.png", tree.path],
                                             environment: ["XDG_CACHE_HOME": cache.path])
        #expect(indexing.0 == 0, "\(indexing.1)")

        try FileManager.default.removeItem(at: tree.appendingPathComponent("one/b.jpg"))
        let added = tree.appendingPathComponent("two/d.jpg").path
        try FileManager.default.copyItem(atPath: TestImages.repository.appendingPathComponent("Images/coffee.png").path, toPath: added)
        let shot = session.scratch.appendingPathComponent("now.png").path
        let now = try ViewerProcess.run(["--headless", "--size", "400x500", "--screenshot", shot, tree.path], environment: ["XDG_CACHE_HOME": fresh.path])
        #expect(now.0 == 0, "\(now.1)")

        let (viewer, window) = try session.launch(["--size", "400x500", "--verbose", tree.path],
                                                  environment: ["XDG_CACHE_HOME": cache.path, "PHOTOZOOM_INDEX_FIRST_FROM": "1"])
        try session.expectWindow(window, toShow: try ImageDecoder.decode(path: shot).image)
        #expect(viewer.standardError.contains("library: 6 photos as the index remembers them"), "\(viewer.standardError)")
        #expect(viewer.standardError.contains("the walk found 2 photos new, gone or changed since the index"), "\(viewer.standardError)")
    }
}
