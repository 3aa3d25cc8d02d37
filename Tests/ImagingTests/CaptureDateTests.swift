import Foundation
import SystemPackage
import Testing
import TestSupport
@testable import Imaging

/// When a photo was taken, as its camera wrote it: EXIF's text parsed to the second, and found in
/// each format's EXIF block as exiftool (the tool people use to set it) writes it.
@Suite struct CaptureDateTests {
    @Test func exifTextIsReadToTheSecondWithItsOffset() throws {
        let date = try #require(CaptureDate(exif: "2024:02:29 23:59:58", offset: "+09:00"))
        #expect(parts(date) == [2024, 2, 29, 23, 59, 58])
        #expect(date.utcOffset == 9 * 3600)
        #expect(date.wallClock == 1_709_251_198, "seconds from 1970 on the camera's clock")
        #expect(CaptureDate(exif: "1970:01:01 00:00:00")?.wallClock == 0)
        #expect(parts(CaptureDate(exif: "1969:12:31 23:59:59")) == [1969, 12, 31, 23, 59, 59])
        #expect(CaptureDate(exif: "2023-03-05 10:00:00", offset: "-05:30")?.utcOffset == -(5 * 3600 + 1800))
        #expect(CaptureDate(exif: "2023:03:05 10:00:00", offset: "   :  ")?.utcOffset == nil, "a blank offset is unknown")
    }

    @Test func blankAndImpossibleDatesAreNone() {
        for text in ["    :  :     :  :  ", "0000:00:00 00:00:00", "2023:02:29 10:00:00", "2023:13:01 10:00:00",
                     "2023:01:01 24:00:00", "2023:01:01", "", "yesterday at noon!!"] {
            #expect(CaptureDate(exif: text) == nil, "\(text)")
        }
    }

    /// JPEG (an APP1 segment), PNG (`eXIf`), WebP (`EXIF`), TIFF, and HEIC's and AVIF's `Exif` item, each
    /// written by exiftool.
    @Test(arguments: [("photo.jpg", TestImages.bundledFolder + "/grace_hopper.jpg"),
                      ("photo.png", TestImages.bundledFolder + "/chelsea.png"),
                      ("photo.webp", FixturePaths.fixture("chelsea.webp")),
                      ("photo.tif", FixturePaths.fixture("alpha.tif")),
                      ("IMG_0001.HEIC", FixturePaths.fixture("thumbnail-item.heic")),
                      ("photo.avif", FixturePaths.fixture("quadrants.avif"))])
    func exiftoolsDateIsFoundInEachFormat(name: String, source: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(source, as: name)
        #expect(CaptureDate.read(path: FilePath(path)) == nil, "no date before")
        try exiftool(["-DateTimeOriginal=2019:07:14 18:30:05", "-OffsetTimeOriginal=+02:00", path])
        let date = try #require(CaptureDate.read(path: FilePath(path)))
        #expect(parts(date) == [2019, 7, 14, 18, 30, 5])
        #expect(date.utcOffset == 7200)
    }

    /// A HEIC's `Exif` item past its first 128 KiB (after 200 KiB of other boxes, as a phone's photo keeps
    /// it after the image data): found where the `meta` box says, with one more small read.
    @Test func aHEICsExifItemIsReadWhereverItLies() throws {
        let folder = try TemporaryFolder()
        let padding = 200 << 10
        let free = [UInt8(0), UInt8((padding + 8) >> 16), UInt8((padding + 8) >> 8 & 0xFF), UInt8((padding + 8) & 0xFF)]
            + Array("free".utf8) + [UInt8](repeating: 0, count: padding)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FixturePaths.fixture("quadrants.heic"))))
        let path = try folder.write("IMG_0002.heic", original + free)
        try exiftool(["-DateTimeOriginal=2022:01:02 03:04:05", "-OffsetTimeOriginal=-03:00", path])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .file(let offset, _)? = HEIFExifItem.locate(in: bytes[..<FileHead.length]) else {
            Issue.record("no Exif item located")
            return
        }
        #expect(offset > FileHead.length, "the item lies past the first bytes")
        let date = try #require(CaptureDate.read(path: FilePath(path)))
        #expect(parts(date) == [2022, 1, 2, 3, 4, 5] && date.utcOffset == -3 * 3600)
        #expect(try ImageDecoder.decode(path: path).image.width == 64, "and the photo still decodes")
    }

    /// Without DateTimeOriginal, the time it was digitized; neither: none.
    @Test func theDigitizedDateStandsInForTheOriginal() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "scan.jpg")
        try exiftool(["-CreateDate=2001:09:09 01:46:40", path])
        #expect(parts(CaptureDate.read(path: FilePath(path))) == [2001, 9, 9, 1, 46, 40])
        #expect(CaptureDate.read(path: FilePath(folder.path)) == nil, "a folder has no date")
    }

    /// Year, month, day, hour, minute, second.
    func parts(_ date: CaptureDate?) -> [Int]? {
        date.map { let c = $0.components; return [c.year, c.month, c.day, c.hour, c.minute, c.second] }
    }

    func exiftool(_ arguments: [String]) throws {
        let (status, _) = try DesktopTools.run("exiftool", ["-q", "-overwrite_original"] + arguments)
        #expect(status == 0, "exiftool \(arguments)")
    }
}
