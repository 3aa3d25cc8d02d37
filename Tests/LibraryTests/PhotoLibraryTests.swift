import Foundation
import Glibc
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

    /// Entries named as photos that can't be read as files are named once each, with why; none is
    /// opened, so a FIFO never blocks the listing. A FIFO without a photo's name is passed over.
    @Test(.timeLimit(.minutes(1)))
    func everySkippedPhotoIsNamedOnceAndNothingBlocks() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "a.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/gone.jpg", withDestinationPath: folder.path + "/nothing.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/loop.jpg", withDestinationPath: folder.path + "/loop.jpg")
        #expect(mkfifo(folder.path + "/pipe.jpg", 0o600) == 0)
        #expect(mkfifo(folder.path + "/pipe", 0o600) == 0)
        let (photos, problems) = PhotoLibrary.collect([folder.path])
        #expect(photos.map(\.name) == ["a.jpg"])
        #expect(problems == [
            "\(folder.path)/gone.jpg: a link to nothing (dangling)",
            "\(folder.path)/loop.jpg: a link loop",
            "\(folder.path)/pipe.jpg: a pipe (FIFO), not a regular file",
        ])
    }
}
