import Foundation
import Glibc
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport

/// PATHs to photos: a folder's tree as a timeline, one folder sorted as a file manager sorts it, files
/// and file:// URIs, missing paths named, and the bundled photos found.
@Suite struct PhotoLibraryTests {
    /// A tree as a Photos library takes it: every photo under the folder, by when it was taken (the
    /// camera's clock, else the file's), oldest first; hidden folders and the cache skipped, a second way
    /// to a folder not listed twice, and a link back up (a loop) said once.
    @Test func aFoldersTreeIsATimelineByDateTaken() throws {
        let folder = try TemporaryFolder()
        let jpeg = TestImages.bundledFolder + "/grace_hopper.jpg", png = TestImages.bundledFolder + "/chelsea.png"
        let trip = try folder.copy(jpeg, as: "2023/trip/a.jpg")
        let old = try folder.copy(jpeg, as: "z.jpg")
        let undated = try folder.copy(jpeg, as: "2023/b.jpg")
        let newest = try folder.copy(png, as: "misc/c.png")
        let sameSecond = try folder.copy(jpeg, as: "misc/d.jpg")
        try folder.copy(png, as: ".hidden/h.png")
        try folder.copy(jpeg, as: "cache/thumb.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/misc/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/misc/again", withDestinationPath: "../2023")
        for (path, date) in [(trip, "2023:03:05 10:00:00"), (old, "2021:01:01 09:00:00"), (newest, "2024:07:01 12:00:00"),
                             (sameSecond, "2024:07:01 12:00:00")] {
            let (status, _) = try DesktopTools.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)",
                                                                "-OffsetTimeOriginal=+00:00", path])
            #expect(status == 0)
        }
        var june2022 = [timespec(tv_sec: 1_654_041_600, tv_nsec: 0), timespec(tv_sec: 1_654_041_600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, undated, &june2022, 0) == 0)

        let (photos, problems) = PhotoLibrary.collect([FilePath(folder.path)], skipping: [FilePath(folder.path + "/cache")])
        #expect(photos.map(\.path) == [old, undated, trip, newest, sameSecond])
        #expect(photos.map { $0.date?.isCaptureTime } == [true, false, true, true, true])
        #expect(photos[1].date?.instant == 1_654_041_600)
        #expect(problems == ["\(folder.path)/misc/loop: a link to a folder it is inside (a loop); not followed"])
    }

    /// A photo opened on its own is shown among its folder's (that folder only), sorted by name as a
    /// file manager sorts them.
    @Test func oneFolderIsSortedByNameAsAFileManagerDoes() throws {
        let folder = try TemporaryFolder()
        let jpeg = TestImages.repository.appendingPathComponent("Images/grace_hopper.jpg").path
        for name in ["IMG_10.jpg", "img_2.JPG", "IMG_1.jpeg", "b.png", "a.webp"] { try folder.write(name, [1]) }
        try folder.copy(jpeg, as: "no-extension")           // a JPEG by content
        try folder.write("notes.txt", Array("hello".utf8))   // neither
        try folder.write(".hidden.jpg", [1])
        try folder.write("sub/inner.jpg", [1])

        let (photos, problems) = PhotoLibrary.photos(inFolder: FilePath(folder.path))
        #expect(problems.isEmpty)
        #expect(photos.map(\.name) == ["a.webp", "b.png", "IMG_1.jpeg", "img_2.JPG", "IMG_10.jpg", "no-extension"])
    }

    /// Numbers by value whatever their zeros (alike ones keep their byte order), case ignored, letters
    /// beyond ASCII after it.
    @Test func namesSortByNumberAndLetterNotByByte() throws {
        let folder = try TemporaryFolder()
        for name in ["b10.jpg", "B9.jpg", "a.jpg", "Äpfel.jpg", "7.jpg", "007.jpg", "IMG_0099.jpg", "IMG_100.jpg"] { try folder.write(name, [1]) }
        let (photos, _) = PhotoLibrary.photos(inFolder: FilePath(folder.path))
        #expect(photos.map(\.name) == ["007.jpg", "7.jpg", "a.jpg", "B9.jpg", "b10.jpg", "IMG_0099.jpg", "IMG_100.jpg", "Äpfel.jpg"])
    }

    @Test func filesAndFileURIsAreTakenAsGiven() throws {
        let folder = try TemporaryFolder()
        let spaced = try folder.write("my photo.png", [1])
        let uri = URL(fileURLWithPath: spaced).absoluteString
        #expect(uri.contains("%20"))
        let (photos, problems) = PhotoLibrary.collect([PhotoLibrary.localPath(uri), PhotoLibrary.localPath(spaced)])
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
        let (photos, problems) = PhotoLibrary.collect([FilePath(folder.path)])
        #expect(photos.map(\.name) == ["a.jpg"])
        #expect(problems == [
            "\(folder.path)/gone.jpg: a link to nothing (dangling)",
            "\(folder.path)/loop.jpg: a link loop",
            "\(folder.path)/pipe.jpg: a pipe (FIFO), not a regular file",
        ])
    }

    /// A name that is not UTF-8 (Latin-1 "café", as old cameras and archives write it) is listed,
    /// shown with U+FFFD, opened by its bytes, reached by its %XX URI, and hashed as GLib would.
    @Test func aNameThatIsNotUTF8IsListedShownAndOpened() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "b.jpg")
        let latin1 = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let name = try #require(FilePath.Component(platformString: latin1.map { CChar(bitPattern: $0) } + [0]))
        let file = FilePath(folder.path).appending(name)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestImages.bundledFolder + "/grace_hopper.jpg")))
        let fd = file.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)

        let (photos, problems) = PhotoLibrary.collect([FilePath(folder.path)])
        #expect(problems.isEmpty)
        #expect(photos.map(\.name) == ["b.jpg", "caf\u{FFFD}.jpg"])
        #expect(photos.last?.file == file)
        #expect(try ImageDecoder.decode(file: file).image.width == 512)
        #expect(PhotoLibrary.collect([PhotoLibrary.localPath("file://\(folder.path)/caf%E9.jpg")]).photos.map(\.file) == [file])
        #expect(ThumbnailCache.uri(ofPath: file) == "file://\(folder.path)/caf%E9.jpg")
        let around = try #require(PhotoLibrary.folder(around: file))
        #expect(around.opening == 1)
    }
}
