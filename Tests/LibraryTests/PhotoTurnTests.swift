import Foundation
import CSandbox
import Glibc
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport

/// Ctrl+R's write, on real files: only the EXIF orientation changes (the JPEG's scan data byte for byte,
/// every other tag kept, as exiftool reads them), a JPEG or PNG without EXIF gets it, the file keeps its
/// permissions, and four quarter turns give the file back as it was.
@Suite struct PhotoTurnTests {
    func exiftool(_ arguments: [String]) throws -> String {
        let (status, output) = try DesktopTools.run("exiftool", arguments)
        #expect(status == 0, "exiftool \(arguments): \(output)")
        return String(decoding: output, as: UTF8.self)
    }

    /// The JPEG's entropy-coded data: from its start of scan to the end.
    func scan(_ path: String) throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = try #require(bytes.firstRange(of: Data([0xFF, 0xDA])))
        return bytes[start.lowerBound...]
    }

    func orientation(_ path: String) -> ExifOrientation? { PhotoFacts.read(path: FilePath(path))?.orientation }

    @Test func aCamerasJPEGTurnsByItsTagAloneAndFourTurnsGiveItBack() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "IMG.jpg")
        _ = try exiftool(["-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS R6", "-Orientation#=1", path])
        #expect(chmod(path, 0o640) == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: path)), scanData = try scan(path)
        for expected in [ExifOrientation.right, .down, .left, .up] {
            #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(expected))
            #expect(orientation(path) == expected)
            #expect(try scan(path) == scanData)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        #expect(try PhotoTurn.turn(FilePath(path), clockwise: false) == .written(.left))
        #expect(try exiftool(["-s3", "-Make", "-Model", "-Orientation", path]) == "Canon\nCanon EOS R6\nRotate 270 CW\n")
    }

    @Test func aJPEGWithoutExifGetsABlockAndDecodesTurned() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "plain.jpg")
        #expect(orientation(path) == nil)
        let scanData = try scan(path)
        #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(.right))
        #expect(try scan(path) == scanData)
        let decoded = try ImageDecoder.decode(data: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect((decoded.image.width, decoded.image.height) == (600, 512), "512x600 stored, turned upright")
        #expect(try exiftool(["-s3", "-Orientation", path]) == "Rotate 90 CW\n")
    }

    /// exiftool's own block without the tag: IFD0 is copied with it, the camera's tags kept.
    @Test func anExifBlockWithoutTheTagGetsIt() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "tagged.jpg")
        for order in ["II-Intel", "MM-Motorola"] {
            _ = try exiftool(["-q", "-overwrite_original", "-all=", path])
            _ = try exiftool(["-q", "-overwrite_original", "-ExifByteOrder=\(order)", "-Make=Nikon", "-Artist=Someone",
                              "-DateTimeOriginal=2020:01:02 03:04:05", path])
            #expect(orientation(path) == nil)
            #expect(try PhotoTurn.turn(FilePath(path), clockwise: false) == .written(.left))
            #expect(try exiftool(["-s3", "-Make", "-Artist", "-DateTimeOriginal", "-Orientation", path])
                    == "Nikon\nSomeone\n2020:01:02 03:04:05\nRotate 270 CW\n", "\(order)")
        }
    }

    @Test func aPNGGetsAnExifChunkThenItIsRewritten() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.repository.appendingPathComponent("Tests/ImagingTests/Fixtures/rgb8.png").path, as: "p.png")
        #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(.right))
        #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(.down))
        // exiftool checks every chunk's CRC: no warning.
        #expect(try exiftool(["-s3", "-Orientation", "-Warning", path]) == "Rotate 180\n")
        let decoded = try ImageDecoder.decode(data: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(decoded.image.width > 0)
    }

    /// A phone's clip turns by its picture track's matrix alone, as exiftool's `-Rotation` reads it: one filmed
    /// upright (a quarter already) and one filmed level. Nothing else in the file moves, it plays turned, and four
    /// quarter turns give the file back.
    @Test(.enabled(if: TestClips.isInstalled), arguments: [(TestClips.Kind.upright, ExifOrientation.right), (.tone, .up)])
    func aClipTurnsByItsMatrixAlone(kind: TestClips.Kind, filmed: ExifOrientation) throws {
        let folder = try TemporaryFolder()
        let path = try #require(try TestClips.make([kind], in: folder)[kind])
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let turns: [ExifOrientation] = [.up, .right, .down, .left]
        let first = turns.firstIndex(of: filmed)!
        for step in 1...4 {
            let expected = turns[(first + step) % 4]
            #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(expected))
            let degrees = 90 * ((first + step) % 4)
            #expect(try exiftool(["-s3", "-Rotation", path]) == "\(degrees)\n")
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            let changed = zip(original, now).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(now.count == original.count && (changed.last ?? 0) - (changed.first ?? 0) < 36, "only the matrix's 36 bytes")
            let poster = try ImageDecoder.decode(path: path).image
            #expect((poster.width, poster.height) == (degrees % 180 == 0 ? (320, 240) : (240, 320)), "it plays turned \(degrees)°")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test func otherFormatsAreNotWrittenAndAFolderTheUserMayNotWriteIsOneLine() throws {
        let folder = try TemporaryFolder()
        let webp = try folder.copy(TestImages.repository.appendingPathComponent("Tests/ImagingTests/Fixtures/chelsea.webp").path, as: "c.webp")
        let before = try Data(contentsOf: URL(fileURLWithPath: webp))
        #expect(try PhotoTurn.turn(FilePath(webp), clockwise: true) == .notWritable(format: "WebP"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: webp)) == before)
        let missing = #expect(throws: PhotoTurn.Failure.self) { try PhotoTurn.turn(FilePath(folder.path + "/gone.jpg"), clockwise: true) }
        #expect(missing?.description.hasPrefix(folder.path + "/gone.jpg: not turned: ") == true)
    }

    /// A file no one may write (0444) and a file with a second name (a hard link) are refused, one line each,
    /// and both stay byte for byte (root included: it could write them, but the file says read-only).
    @Test func aReadOnlyFileOrOneWithTwoNamesIsRefusedAndLeftAsItWas() throws {
        let folder = try TemporaryFolder()
        let readOnly = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "read-only.jpg")
        #expect(chmod(readOnly, 0o444) == 0)
        let linked = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "linked.jpg")
        #expect(link(linked, folder.path + "/second-name.jpg") == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: linked))
        let refusedReadOnly = #expect(throws: PhotoTurn.Failure.self) { try PhotoTurn.turn(FilePath(readOnly), clockwise: true) }
        #expect(refusedReadOnly?.description == "\(readOnly): not turned: it is read-only")
        let refusedLinked = #expect(throws: PhotoTurn.Failure.self) { try PhotoTurn.turn(FilePath(linked), clockwise: true) }
        #expect(refusedLinked?.description.contains("2 names (hard links)") == true, "\(String(describing: refusedLinked))")
        for path in [readOnly, linked, folder.path + "/second-name.jpg"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        }
    }

    /// The turned file keeps the extended attributes of the one it replaces (a user's tag, as an ACL is kept).
    @Test func extendedAttributesAreKept() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "tagged.jpg")
        let value = Array("holiday".utf8)
        try #require(setxattr(path, "user.xdg.tags", value, value.count, 0) == 0, "the temporary folder's file system takes user attributes")
        #expect(try PhotoTurn.turn(FilePath(path), clockwise: true) == .written(.right))
        var read = [UInt8](repeating: 0, count: 64)
        let length = getxattr(path, "user.xdg.tags", &read, read.count)
        #expect(length == value.count && Array(read[..<max(0, length)]) == value)
    }

    /// A name that is not UTF-8 (Latin-1 "é") turns under its own bytes; its sibling named with U+FFFD, as the
    /// byte is shown, is left as it was, and no temporary file stays behind.
    @Test func aLatin1NameTurnsItsOwnFile() throws {
        let folder = try TemporaryFolder()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: TestImages.bundledFolder + "/grace_hopper.jpg")))
        let path = FilePath(bytes: Array((folder.path + "/caf").utf8) + [0xE9] + Array(".jpg".utf8))
        let sibling = FilePath(folder.path + "/caf\u{FFFD}.jpg")
        for file in [path, sibling] {
            let fd = try FileDescriptor.open(file, .writeOnly, options: .create, permissions: [.ownerReadWrite])
            _ = try fd.closeAfter { try fd.writeAll(bytes) }
        }
        #expect(try PhotoTurn.turn(path, clockwise: true) == .written(.right))
        #expect(PhotoFacts.read(path: path)?.orientation == .right)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: sibling.string))) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
    }
}
