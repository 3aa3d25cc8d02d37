import Foundation
import Imaging
import Testing
import TestSupport

/// `photozoom` as typed in a terminal, without a display.
@Suite struct CommandLineTests {
    /// Removed when the test is over.
    private let temporary: TemporaryFolder
    let scratch: URL

    init() throws {
        temporary = try TemporaryFolder()
        scratch = temporary.url
    }

    @Test func headlessScreenshotOfTheBundledPhotosIsByteIdenticalRunToRun() throws {
        let a = scratch.appendingPathComponent("a.png").path, b = scratch.appendingPathComponent("b.png").path
        let (s1, e1) = try ViewerProcess.run(["--headless", "--screenshot", a])
        let (s2, _) = try ViewerProcess.run(["--headless", "--screenshot", b])
        #expect(s1 == 0 && s2 == 0, "\(e1)")
        #expect(e1.isEmpty, "a clean run prints nothing: \(e1)")
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: a)), bytesB = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(bytesA == bytesB)
        let image = try ImageDecoder.decode(path: a).image
        #expect(image.width == 1280 && image.height == 800)
    }

    /// Thumbnails go to the freedesktop cache; a second run reads them back and shows the same grid.
    /// `--no-thumbnail-cache` neither reads nor writes it.
    @Test func thumbnailsAreSharedThroughTheFreedesktopCache() throws {
        let cache = try TemporaryFolder()
        let a = scratch.appendingPathComponent("a.png").path, b = scratch.appendingPathComponent("b.png").path
        let env = ["XDG_CACHE_HOME": cache.path]
        let (s1, e1) = try ViewerProcess.run(["--headless", "--screenshot", a], environment: env)
        #expect(s1 == 0, "\(e1)")
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path + "/thumbnails").filter { $0.hasSuffix(".png") }
        #expect(entries.count == 15, "one for each bundled photo: \(entries)")
        let (s2, _) = try ViewerProcess.run(["--headless", "--screenshot", b], environment: env)
        #expect(s2 == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))

        let untouched = try TemporaryFolder()
        let (s3, _) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--screenshot", b],
                                            environment: ["XDG_CACHE_HOME": untouched.path])
        #expect(s3 == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: untouched.path).isEmpty)
    }

    @Test func withoutADisplayItSaysSoAndSuggestsHeadless() throws {
        let (status, errors) = try ViewerProcess.run([])
        #expect(status != 0)
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1, "\(errors)")
        #expect(errors.contains("cannot open the X display"))
        #expect(errors.contains("DISPLAY"))
        #expect(errors.contains("--headless"))
    }

    @Test func badInputFilesAreNamedOneLineEachAndTheRunSucceeds() throws {
        let folder = scratch.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("empty.jpg"))
        try Data("hello".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        let out = scratch.appendingPathComponent("bad.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "400x300", "--screenshot", out, folder.path,
                                                      scratch.appendingPathComponent("missing.jpg").path])
        #expect(status == 0)
        let lines = errors.split(separator: "\n").map(String.init).sorted()
        #expect(lines == [
            "photozoom: warning: \(folder.path)/empty.jpg: the file is empty",
            "photozoom: warning: \(folder.path)/text.jpg: \(ImageDecodeError.unknownFormat)",
            "photozoom: warning: \(scratch.path)/missing.jpg: no such file or folder",
        ].sorted())
        #expect(FileManager.default.fileExists(atPath: out))
    }

    /// As a file manager opens a photo: the viewer starts on it, among its folder's photos.
    @Test func aPhotoOnItsOwnOpensInTheViewer() throws {
        let photo = TestImages.repository.appendingPathComponent("Images/chelsea.png")
        let out = scratch.appendingPathComponent("one.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "800x500", "--screenshot", out, photo.absoluteString])
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        let shot = try ImageDecoder.decode(path: out).image
        #expect(shot.pixel(x: 5, y: 250) & 0xFF_FFFF == 0, "black beside the 3:2 photo in a 16:10 window")
        #expect(shot.pixel(x: 400, y: 250) & 0xFF_FFFF != 0, "the photo in the middle")
    }

    @Test func fileURIsAreOpened() throws {
        let photo = TestImages.repository.appendingPathComponent("Images/chelsea.png")
        let out = scratch.appendingPathComponent("uri.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "300x300", "--screenshot", out, photo.absoluteString])
        #expect(status == 0 && errors.isEmpty, "\(errors)")
    }

    @Test(arguments: ["0x100", "100000x100000", "wide", "640x"])
    func absurdSizesAreRefused(_ size: String) throws {
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", size])
        #expect(status != 0)
        #expect(errors.contains("--size"), "\(errors)")
    }

    @Test func unwritableScreenshotIsOneLine() throws {
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "200x200", "--screenshot", "/nonexistent/dir/x.png"])
        #expect(status != 0)
        #expect(errors.contains("cannot write the screenshot /nonexistent/dir/x.png"), "\(errors)")
    }
}
