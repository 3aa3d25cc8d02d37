import Foundation
import Glibc
import Pixels
import Testing
import TestSupport

/// A second launch on the same folder shows the grid's first screen finished in its first frame and
/// never changes it after (the cells as the last launch left them, then their thumbnails, the same
/// pixels; a clip's with its length's badge); a photo changed in between is left out and loads as usual.
@Suite(.serialized) struct LaunchSnapshotTests {
    @Test func aSecondLaunchShowsTheFinishedGridFromItsFirstFrame() throws {
        let session = try WindowSession()
        let photos = try TemporaryFolder(), cache = try TemporaryFolder()
        // Dated by their camera a minute apart, in name order: a photo written again keeps its place.
        let names = try FileManager.default.contentsOfDirectory(atPath: TestImages.bundledFolder).filter { $0.hasSuffix(".jpg") }.sorted()
        var dating: [String] = []
        for (i, name) in names.enumerated() {
            let copy = try photos.copy(TestImages.bundledFolder + "/" + name, as: name)
            dating += [String(format: "-DateTimeOriginal=2024:05:01 10:%02d:00", i), copy, "-execute"]
        }
        let argfile = try photos.write(".dates", Array(dating.joined(separator: "\n").utf8))
        #expect(try DesktopTools.run("exiftool", ["-@", argfile, "-common_args", "-q", "-overwrite_original"]).status == 0)
        try FileManager.default.removeItem(atPath: argfile)
        // A phone's clip among them (filmed 2023: the oldest), its cell badged with its length.
        try TestClips.make([.tone], in: photos)
        let arguments = ["--size", "640x400", "--verbose", photos.path]
        let environment = ["XDG_CACHE_HOME": cache.path]

        // The first launch decodes the thumbnails and keeps its first screen once it is complete.
        let (first, firstWindow) = try session.launch(arguments, environment: environment)
        #expect(session.wait { first.standardError.contains("kept the grid's first screen") }, "\(first.standardError)")
        // The finished grid: once the log says so, what two captures a moment apart agree on.
        #expect(session.wait { first.standardError.contains("grid complete") })
        var finished: PixelImage?
        #expect(session.wait {
            let before = session.client.capture(firstWindow)
            usleep(100_000)
            finished = session.client.capture(firstWindow)
            guard let before, let finished else { return false }
            return PixelComparison(before, finished, channelTolerance: 0).differing == 0
        })
        session.client.sendDeleteWindow(firstWindow)
        #expect(first.waitForExit(seconds: 10) == 0)

        // The second shows every cell at once: each capture from the window's mapping on is either the
        // window before its first frame (one colour) or the finished grid.
        let (second, window) = try session.launch(arguments, environment: environment)
        var captures: [PixelImage] = []
        let until = Date().addingTimeInterval(1.5)
        while Date() < until {
            if let capture = session.client.capture(window) { captures.append(capture) }
        }
        let cells = try #require(second.standardError.firstMatch(of: /first screen as last seen: (\d+) of (\d+) cells/),
                                 "\(second.standardError)")
        #expect(cells.1 == cells.2 && Int(cells.1)! >= 8, "\(cells.0)")
        let shown = captures.filter { !isOneColour($0) }
        #expect(!shown.isEmpty)
        for (i, capture) in shown.enumerated() {
            let change = PixelComparison(capture, try #require(finished), channelTolerance: 0)
            #expect(change.differing == 0, "capture \(i) of \(shown.count): \(change.differing) pixels differ from the finished grid")
        }
        #expect(second.standardError.contains("grid complete"), "the thumbnails came, behind the cells as last seen")
        #expect(!second.standardError.contains("kept the grid's first screen"), "nothing to write: the cells are the ones kept")
        session.client.sendDeleteWindow(window)
        #expect(second.waitForExit(seconds: 10) == 0)

        // A photo written again since: its cell loads as usual, the others show at once; the screen kept
        // again.
        let touched = photos.path + "/" + names[names.count - 1]   // the newest: in the first screen, at its foot
        var later = timespec(tv_sec: time(nil) + 60, tv_nsec: 0)
        _ = withUnsafePointer(to: &later) { now in utimensat(AT_FDCWD, touched, [now.pointee, now.pointee], 0) }
        let (third, thirdWindow) = try session.launch(arguments, environment: environment)
        #expect(session.wait { third.standardError.contains("kept the grid's first screen") }, "\(third.standardError)")
        let again = try #require(third.standardError.firstMatch(of: /first screen as last seen: (\d+) of (\d+) cells/))
        #expect(Int(again.1)! == Int(again.2)! - 1, "\(again.0)")
        try session.expectWindow(thirdWindow, toShow: try #require(finished))
    }

    private func isOneColour(_ image: PixelImage) -> Bool {
        let first = image.pixel(x: 0, y: 0)
        for y in Swift.stride(from: 0, to: image.height, by: 3) {
            for x in Swift.stride(from: 0, to: image.width, by: 3) where image.pixel(x: x, y: y) != first { return false }
        }
        return true
    }
}
