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

    /// JPEG (an APP1 segment), PNG (`eXIf`), WebP (`EXIF`) and TIFF, each written by exiftool.
    @Test(arguments: [("photo.jpg", TestImages.bundledFolder + "/grace_hopper.jpg"),
                      ("photo.png", TestImages.bundledFolder + "/chelsea.png"),
                      ("photo.webp", FixturePaths.fixture("chelsea.webp")),
                      ("photo.tif", FixturePaths.fixture("alpha.tif"))])
    func exiftoolsDateIsFoundInEachFormat(name: String, source: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(source, as: name)
        #expect(CaptureDate.read(path: FilePath(path)) == nil, "no date before")
        try exiftool(["-DateTimeOriginal=2019:07:14 18:30:05", "-OffsetTimeOriginal=+02:00", path])
        let date = try #require(CaptureDate.read(path: FilePath(path)))
        #expect(parts(date) == [2019, 7, 14, 18, 30, 5])
        #expect(date.utcOffset == 7200)
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
