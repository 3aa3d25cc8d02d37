import Foundation
import Library
import Testing
import TestSupport

/// PATHs to photos: folders listed and sorted as a file manager sorts them, files and file:// URIs,
/// missing paths named, and the bundled photos found.
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
