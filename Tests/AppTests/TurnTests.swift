import Foundation
import Geometry
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// Ctrl+R in the app: the open photo turns with a spring onto its new fit, its file says the new
/// orientation, and its page and grid thumbnail, read again, show it turned; read-only, it turns on
/// screen only and the file stays as it was.
@Suite struct TurnTests {
    static let size = Size(width: 600, height: 600)

    /// A folder holding grace_hopper.jpg (512x600, portrait) alone, opened in the viewer.
    func opened(writes: Bool) throws -> (OpenViewer, TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "grace.jpg")
        let v = OpenViewer(index: 0, size: Self.size, folders: [folder.path])
        v.app.writesPhotos = writes
        return (v, folder, path)
    }

    @Test func itTurnsWithASpringAndItsFileSaysSo() throws {
        let (v, folder, path) = try opened(writes: true)
        let before = v.photoFrame
        #expect(before.height > before.width)
        _ = v.app.handle(.key(name: "r", modifiers: [.control]))
        v.frames(6)
        let turning = try #require(v.app.root.descendant(named: "viewer.turningPhoto"), "a still turns over the page")
        let angle = atan2(turning.transform.b, turning.transform.a)
        #expect(angle > 0.2 && angle < .pi / 2, "part way, clockwise: \(angle)")
        v.settle()
        #expect(v.app.root.descendant(named: "viewer.turningPhoto") == nil)
        #expect(v.photoFrame.width > v.photoFrame.height, "landscape now: \(v.photoFrame)")
        #expect(PhotoFacts.read(path: FilePath(path))?.orientation == .right)
        let thumbnail = try #require(v.app.grid.picture(at: 0))
        #expect(thumbnail.width > thumbnail.height, "the grid's thumbnail, read again, is turned")
        _ = folder
    }

    /// A Live Photo turns as one: its still's EXIF and its movie's matrix both say a quarter clockwise.
    @Test(.enabled(if: TestClips.isInstalled)) func aLivePhotosMovieTurnsWithItsStill() throws {
        let folder = try TemporaryFolder()
        try AppleLivePhoto.make(still: "IMG_0002.JPG", movie: "IMG_0002.MOV", identifier: "5C0E-TURN", in: folder)
        let v = OpenViewer(index: 0, size: Self.size, folders: [folder.path])
        v.app.writesPhotos = true
        _ = v.app.handle(.key(name: "r", modifiers: [.control]))
        v.settle()
        #expect(PhotoFacts.read(path: FilePath(folder.path + "/IMG_0002.JPG"))?.orientation == .right)
        let movie = try ImageDecoder.decode(path: folder.path + "/IMG_0002.MOV").image
        #expect((movie.width, movie.height) == (240, 320), "the movie stands turned too: \(movie.width)x\(movie.height)")
    }

    @Test func readOnlyItTurnsOnScreenOnly() throws {
        let (v, folder, path) = try opened(writes: false)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        _ = v.app.handle(.key(name: "R", modifiers: [.control, .shift]))
        v.settle()
        #expect(v.photoFrame.width > v.photoFrame.height)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        _ = folder
    }
}
