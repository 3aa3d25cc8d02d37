import Foundation
import Glibc
import Imaging
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport

/// The freedesktop thumbnail cache, on real photos in a private cache folder.
@Suite struct ThumbnailCacheTests {
    let photos = try! TemporaryFolder()
    let home = try! TemporaryFolder()
    var root: String { home.path + "/thumbnails" }
    var cache: ThumbnailCache { ThumbnailCache(root: root) }

    func photo(_ name: String = "Kleiber_by_Lukas_Baubkus.jpg") throws -> String {
        try photos.copy(TestImages.bundledFolder + "/" + name, as: name)
    }

    func entry(_ path: String, _ folder: String = "x-large") -> String {
        root + "/" + folder + "/" + ThumbnailCache.entryName(forURI: ThumbnailCache.uri(ofPath: FilePath(path)))
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    func mtime(_ path: String) -> Int {
        var info = stat()
        stat(path, &info)
        return Int(info.st_mtim.tv_sec)
    }

    @Test func urisAreEscapedAsGLibEscapesThem() {
        #expect(ThumbnailCache.uri(ofPath: "/home/me/a b/ü;x(1)+~.jpg") == "file:///home/me/a%20b/%C3%BC%3Bx(1)+~.jpg")
        #expect(ThumbnailCache.entryName(forURI: "file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697.png",
                "the standard's own example")
    }

    @Test func theSizeFollowsTheCellInDevicePixels() {
        #expect(ThumbnailCache.Size.covering(100) == .normal)
        #expect(ThumbnailCache.Size.covering(180) == .large)
        #expect(ThumbnailCache.Size.covering(360) == .xLarge)
        #expect(ThumbnailCache.Size.covering(5000) == .xxLarge)
    }

    @Test func aMissingThumbnailIsWrittenByTheStandard() throws {
        let path = try photo()
        let decoded = try cache.thumbnail(path: FilePath(path), covering: 180)
        #expect(min(decoded.image.width, decoded.image.height) >= 180 && max(decoded.image.width, decoded.image.height) <= 512)
        #expect(decoded.fullSize == (6028, 3391))

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: entry(path))))
        let text = PNGText.read(bytes)
        #expect(text["Thumb::URI"] == "file://" + path)
        #expect(text["Thumb::MTime"] == String(mtime(path)))
        #expect(text["Thumb::Size"] == String(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
        #expect(text["Thumb::Image::Width"] == "6028" && text["Thumb::Image::Height"] == "3391")
        #expect(text["Software"] == "PhotoZoomAnimator \(Version.string)")
        let thumb = try ImageDecoder.decode(data: bytes).image
        #expect(max(thumb.width, thumb.height) <= 512 && min(thumb.width, thumb.height) >= 180,
                "a 16:9 photo: x-large, whose thumbnail covers the square cell (\(thumb.width)×\(thumb.height))")
        #expect(mode(entry(path)) == 0o600 && mode(root + "/x-large") == 0o700 && mode(root) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path) == ["Kleiber_by_Lukas_Baubkus.jpg"],
                "nothing written next to the photo")
    }

    @Test func theSecondLaunchShowsTheSamePixelsFromTheCache() throws {
        let path = try photo()
        let cold = try cache.thumbnail(path: FilePath(path), covering: 180).image
        let written = mtime(entry(path))
        let warm = try ThumbnailCache(root: root).thumbnail(path: FilePath(path), covering: 180).image
        #expect(warm.width == cold.width && warm.height == cold.height)
        #expect(memcmp(warm.bytes, cold.bytes, cold.stride * cold.height) == 0)
        #expect(mtime(entry(path)) == written, "read, not written again")
    }

    /// A thumbnail another program wrote (here: a plain red one) is used as it is.
    @Test func aThumbnailAnotherProgramWroteIsUsed() throws {
        let path = try photo()
        try writeForeign(for: path, mtime: mtime(path))
        let decoded = try cache.thumbnail(path: FilePath(path), covering: 180)
        #expect(decoded.image.pixel(x: 5, y: 5) == 0xFFFF_0000)
        #expect(decoded.fullSize == (6028, 3391), "the size its text gives")
    }

    @Test func aStaleThumbnailIsReplaced() throws {
        let path = try photo()
        try writeForeign(for: path, mtime: mtime(path) - 60)
        let decoded = try cache.thumbnail(path: FilePath(path), covering: 180)
        #expect(decoded.image.pixel(x: 5, y: 5) != 0xFFFF_0000, "the photo itself")
        let text = PNGText.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: entry(path)))))
        #expect(text["Thumb::MTime"] == String(mtime(path)))
    }

    @Test func brokenOrForeignEntriesArePassedOver() throws {
        let path = try photo()
        let name = (entry(path) as NSString).lastPathComponent
        try home.write("thumbnails/x-large/" + name, Array("not a png at all".utf8))
        #expect(try cache.thumbnail(path: FilePath(path), covering: 180).image.width >= 180)
        try home.write("thumbnails/x-large/" + name, PNGWriter.encode(TestImages.solid(width: 512, height: 288, argb: 0xFFFF_0000))!)
        #expect(try cache.thumbnail(path: FilePath(path), covering: 180).image.pixel(x: 5, y: 5) != 0xFFFF_0000)
    }

    @Test func aCacheThatCannotBeWrittenStillGivesThePhoto() throws {
        let path = try photo()
        let blocked = try home.write("not-a-folder", [1, 2, 3])
        let decoded = try ThumbnailCache(root: blocked + "/thumbnails").thumbnail(path: FilePath(path), covering: 180)
        #expect(min(decoded.image.width, decoded.image.height) >= 180 && max(decoded.image.width, decoded.image.height) <= 512)
    }

    @Test func aFileThatFailsFailsAsWithoutACacheAndIsRecorded() throws {
        let path = try photos.write("notes.jpg", Array("hello".utf8))
        #expect(throws: ImageDecodeError.unknownFormat) { try cache.thumbnail(path: FilePath(path), covering: 180) }
        let failed = entry(path, "fail/photozoom-\(Version.string)")
        #expect(PNGText.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: failed))))["Thumb::URI"] == "file://" + path)
        #expect(throws: ImageDecodeError.vanished) {
            try cache.thumbnail(path: FilePath(photos.path + "/gone.jpg"), covering: 180)
        }
    }

    /// A file whose content failed is not decoded again at the next launch while it is unchanged: the
    /// failure recorded in `fail/` comes back with its reason, without a decode.
    @Test func aRecordedFailureStandsWhileTheFileIsUnchanged() throws {
        let path = try photos.write("notes.jpg", Array("hello".utf8))
        #expect(cache.recordedFailure(path: FilePath(path)) == nil)
        #expect(throws: ImageDecodeError.unknownFormat) { try cache.make(path: FilePath(path), covering: 180) }
        let recorded = try #require(cache.recordedFailure(path: FilePath(path)))
        #expect(recorded == .failedBefore(ImageDecodeError.unknownFormat.description))
        #expect(recorded.description.hasPrefix("not an image the viewer knows"))

        // The next launch's queue gives the recorded failure: no decode (it would say .unknownFormat).
        let queue = DecodeQueue(threads: 1, thumbnails: ThumbnailCache(root: root), placeholders: false)
        queue.request(.thumbnail, index: 0, path: FilePath(path), covering: PixelSize(width: 180, height: 180), priority: .visible)
        queue.waitUntilIdle()
        let result = try #require(queue.takeFinished(.thumbnail).first)
        #expect(throws: recorded) { try result.outcome.get() }

        // Changed (a newer time): tried again.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(cache.recordedFailure(path: FilePath(path)) == nil)
    }

    /// Only a failure of the file's content is recorded; one of the moment (a file denied or gone, memory,
    /// a decoding library not installed yet) is tried again at the next launch.
    @Test func onlyFailuresOfTheContentAreRecorded() {
        let lasting: [ImageDecodeError] = [.empty, .unknownFormat, .tooLarge(width: 1, height: 1),
                                           .corrupt(format: "PNG", detail: "x"), .unsupported(format: "JPEG", detail: "x")]
        let passing: [ImageDecodeError] = [.unreadable("permission denied"), .vanished,
                                           .libraryMissing(format: "HEIC", reason: "x")]
        #expect(lasting.allSatisfy(\.isLasting) && !passing.contains(where: \.isLasting))
    }

    private func writeForeign(for path: String, mtime: Int) throws {
        let red = TestImages.solid(width: 512, height: 288, argb: 0xFFFF_0000)
        let png = PNGWriter.encode(red, text: [(key: "Thumb::URI", value: ThumbnailCache.uri(ofPath: FilePath(path))),
                                               (key: "Thumb::MTime", value: String(mtime)),
                                               (key: "Thumb::Image::Width", value: "6028"),
                                               (key: "Thumb::Image::Height", value: "3391"),
                                               (key: "Software", value: "another viewer")])!
        try home.write("thumbnails/x-large/" + (entry(path) as NSString).lastPathComponent, png)
    }
}

/// A clip's entry in the cache records its length, the standard's `Thumb::Movie::Length`: the next launch's cell
/// shows it from the entry; an entry another program wrote without it is made again, with it.
@Suite(.enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipThumbnailTests {
    let clips = try! TemporaryFolder()
    let home = try! TemporaryFolder()
    var root: String { home.path + "/thumbnails" }

    @Test func aClipsEntryRecordsItsLengthForTheNextLaunch() throws {
        let path = try #require(TestClips.make([.tone], in: clips)[.tone])
        let made = try ThumbnailCache(root: root).make(path: FilePath(path), covering: 180)
        #expect(made.clip?.duration == 2)
        let entry = root + "/large/" + ThumbnailCache.entryName(forURI: ThumbnailCache.uri(ofPath: FilePath(path)))
        #expect(PNGText.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: entry))))["Thumb::Movie::Length"] == "2")
        let warm = try #require(ThumbnailCache(root: root).lookup(path: FilePath(path), covering: 180))
        #expect(warm.clip?.durationText == "0:02" && (warm.clip?.width, warm.clip?.height) == (320, 240))
    }

    @Test func aClipsEntryWithoutItsLengthIsMadeAgain() throws {
        let path = try #require(TestClips.make([.tone], in: clips)[.tone])
        var info = stat()
        stat(path, &info)
        let foreign = PNGWriter.encode(TestImages.solid(width: 256, height: 192, argb: 0xFFFF_0000),
                                       text: [(key: "Thumb::URI", value: ThumbnailCache.uri(ofPath: FilePath(path))),
                                              (key: "Thumb::MTime", value: String(info.st_mtim.tv_sec))])!
        try home.write("thumbnails/large/" + ThumbnailCache.entryName(forURI: ThumbnailCache.uri(ofPath: FilePath(path))), foreign)
        let queue = DecodeQueue(threads: 1, thumbnails: ThumbnailCache(root: root), placeholders: false)
        queue.request(.thumbnail, index: 0, path: FilePath(path), covering: PixelSize(width: 180, height: 180), priority: .visible)
        queue.waitUntilIdle()
        let result = try #require(queue.takeFinished(.thumbnail).last)
        #expect(result.clip?.durationText == "0:02")
        #expect(try result.outcome.get().pixel(x: 5, y: 5) != 0xFFFF_0000, "the clip's own poster, not the other program's red")
    }
}
