import Foundation
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// The info panel's words for real camera files, their tags written by exiftool as cameras write them
/// (Canon's little-endian block, Apple's big-endian one with the place south and west), and for a file
/// without EXIF at all.
@Suite struct PhotoInfoTests {
    func exiftool(_ arguments: [String]) throws {
        let (status, output) = try DesktopTools.run("exiftool", ["-q", "-overwrite_original"] + arguments)
        #expect(status == 0, "exiftool \(arguments): \(output)")
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    func rows(_ path: String) -> (title: String, rows: [String: String]) {
        let (title, rows) = PhotoInfo.describe(Photo(file: FilePath(path)), locale: Locale(identifier: "en_GB"))
        return (title, Dictionary(uniqueKeysWithValues: rows.map { ($0.label, $0.value) }))
    }

    @Test func aCanonsTagsAndItsPlace() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "IMG_0001.JPG")
        try exiftool(["-ExifByteOrder=II-Intel", "-Make=Canon", "-Model=Canon EOS R6", "-LensModel=RF24-105mm F4 L IS USM",
                      "-FNumber=4", "-ExposureTime=1/250", "-ISO=400", "-FocalLength=50", "-FocalLengthIn35mmFormat=50",
                      "-DateTimeOriginal=2024:03:05 14:05:09", "-OffsetTimeOriginal=+01:00",
                      "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
                      "-GPSAltitude=35", "-GPSAltitudeRef=0", path])
        let (title, info) = rows(path)
        #expect(title == "Tuesday 5 March 2024, 14:05" || title.contains("5 March 2024"), "\(title)")
        #expect(info["Camera"] == "Canon EOS R6")
        #expect(info["Lens"] == "RF24-105mm F4 L IS USM")
        #expect(info["Exposure"] == "ƒ/4 · 1/250 s · ISO 400 · 50 mm")
        let size = try #require(info["Size"])
        #expect(size.hasPrefix("512 × 600 · 0.3 MP · "), "\(size)")
        #expect(info["Format"] == "JPEG")
        #expect(info["Location"] == "48.85840° N, 2.29450° E · 35 m")
        #expect(info["File"] == "IMG_0001.JPG")
        #expect(info["Folder"] == folder.path)
    }

    @Test func anIPhonesTagsSouthAndWestBigEndian() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "IMG_4242.jpg")
        try exiftool(["-ExifByteOrder=MM-Motorola", "-Make=Apple", "-Model=iPhone 15 Pro", "-LensModel=iPhone 15 Pro back camera 6.765mm f/1.78",
                      "-FNumber=1.78", "-ExposureTime=1/120", "-ISO=80", "-FocalLength=6.765", "-FocalLengthIn35mmFormat=24",
                      "-Orientation#=6", "-DateTimeOriginal=2023:12:31 23:59:00",
                      "-GPSLatitude=22.9519", "-GPSLatitudeRef=S", "-GPSLongitude=43.2105", "-GPSLongitudeRef=W", "-GPSAltitude=5",
                      "-GPSAltitudeRef#=1", path])
        let (title, info) = rows(path)
        #expect(title.contains("31 December 2023"), "\(title)")
        // The make once: the model says it.
        #expect(info["Camera"] == "Apple iPhone 15 Pro")
        #expect(info["Exposure"] == "ƒ/1.8 · 1/120 s · ISO 80 · 6.8 mm (24 mm in 35 mm)")
        // Turned by its orientation: as it is seen.
        #expect(info["Size"]?.hasPrefix("600 × 512 · ") == true, "\(info["Size"] ?? "")")
        #expect(info["Location"] == "22.95190° S, 43.21050° W · -5 m")
    }

    @Test func aFileWithoutExifSaysWhatItIs() throws {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "chelsea.png")
        let (title, info) = rows(path)
        #expect(title == "chelsea.png")
        #expect(Set(info.keys) == ["Size", "Format", "File", "Folder"])
        #expect(info["Format"] == "PNG · sRGB IEC61966-2.1", "its iCCP profile's name")
        #expect(info["Size"]?.hasPrefix("451 × 300 · 0.1 MP · ") == true, "\(info["Size"] ?? "")")
    }

    @Test func aColourProfileIsNamed() throws {
        let (_, jpeg) = rows(Self.fixtures + "/red-adobergb.jpg")
        // colord's profile names itself in many languages (v4 `mluc`): the English record is said.
        #expect(jpeg["Format"] == "JPEG · Compatible with Adobe RGB (1998)")
        let (_, png) = rows(Self.fixtures + "/red-prophoto.png")
        #expect(png["Format"] == "PNG · ProPhoto RGB")
        let (_, webp) = rows(Self.fixtures + "/red-adobergb.webp")
        #expect(webp["Format"] == "WebP · Compatible with Adobe RGB (1998)")
    }

    @Test func shutterSizesAndPlacesInWords() {
        #expect(PhotoInfo.shutter(1.0 / 4000) == "1/4000 s")
        #expect(PhotoInfo.shutter(0.5) == "1/2 s")
        #expect(PhotoInfo.shutter(2) == "2 s")
        #expect(PhotoInfo.shutter(1.3) == "1.3 s")
        #expect(PhotoInfo.bytes(980) == "980 bytes")
        #expect(PhotoInfo.bytes(512_345) == "512 KB")
        #expect(PhotoInfo.bytes(7_234_567) == "7.2 MB")
    }

    /// A phone's clip: when, where and with what it was filmed (its own words), how long it plays and at what rate, its
    /// size, and its codec with its sound.
    @Test(.enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
    func aClipSaysItsLengthRateSizeAndCodec() throws {
        let folder = try TemporaryFolder()
        let path = try #require(TestClips.make([.tone], in: folder)[.tone])
        let clip = try #require(try ImageDecoder.decode(path: path).clip)
        let (title, list) = PhotoInfo.describe(Photo(file: FilePath(path)), clip: clip, locale: Locale(identifier: "en_GB"))
        let rows = Dictionary(uniqueKeysWithValues: list.map { ($0.label, $0.value) })
        #expect(title == "Thursday, 1 June 2023 at 12:34", "\(title)")
        #expect(rows["Camera"] == "Apple iPhone 13")
        #expect(rows["Length"] == "0:02 · 30 fps")
        #expect(rows["Size"]?.hasPrefix("320 × 240 · 0.1 MP · ") == true, "\(rows["Size"] ?? "")")
        #expect(rows["Format"] == "MP4 · H.264 with sound")
        #expect(rows["Location"] == "37.33490° N, 122.00900° W · 10 m", "its ISO 6709 point: \(rows["Location"] ?? "none")")
        #expect(list.first?.label == "Length", "a clip's length first: \(list.map(\.label))")
    }
}
