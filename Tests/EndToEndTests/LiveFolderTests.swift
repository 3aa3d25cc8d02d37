import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// A photo saved over while the viewer is open, in a real window: as an editor saves it (a new file
/// renamed over the old) and written in place, the open photo and then its grid cell show the new
/// contents, without leaving the viewer or the grid. Each state is compared with a headless run that
/// opened the files as they then were.
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
}
