import Foundation
import SystemPackage
import Testing
import TestSupport
@testable import Imaging

/// A phone's clips, made with ffmpeg: each gives its first picture as its poster, upright, at the size asked for, with
/// what it says of itself; one cut short still gives its poster; a text file named `.mp4` is no clip.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipDecodingTests {
    nonisolated(unsafe) static let folder = try! TemporaryFolder()
    static let clips = try! TestClips.make(in: folder)

    static let red = RGBA(r: 255, g: 0, b: 0), green = RGBA(r: 0, g: 255, b: 0)
    static let blue = RGBA(r: 0, g: 0, b: 255), white = RGBA(r: 255, g: 255, b: 255)

    @Test(arguments: [(TestClips.Kind.tone, "MP4", "h264", 2.0, true), (.webm, "WebM", "vp9", 1.0, false),
                      (.silent, "Matroska", "h264", 1.0, false)])
    func aClipsPosterIsItsFirstPictureWithItsFacts(kind: TestClips.Kind, format: String, codec: String, seconds: Double, sound: Bool) throws {
        let decoded = try ImageDecoder.decode(path: #require(Self.clips[kind]))
        #expect(decoded.format.name == format)
        #expect((decoded.image.width, decoded.image.height) == (320, 240) && decoded.fullSize == (320, 240))
        // Four flat colours through 4:2:0 video: each quadrant's middle is within a few levels of its colour.
        let colours = decoded.image.quadrantColors
        #expect(zip(colours, [Self.red, Self.green, Self.blue, Self.white]).allSatisfy { $0.isClose(to: $1, tolerance: 12) }, "\(colours)")
        let clip = try #require(decoded.clip)
        #expect(clip.codec == codec && clip.hasSound == sound && abs(clip.duration - seconds) < 0.1, "\(clip)")
        #expect(abs(clip.frameRate - 30) < 0.01 && (clip.width, clip.height) == (320, 240))
    }

    /// A phone held upright films its pictures on their side, and says in its matrix to turn them a quarter
    /// clockwise: the poster stands upright (the picture's bottom-left blue is now top-left).
    @Test func aClipFilmedUprightStandsUpright() throws {
        let decoded = try ImageDecoder.decode(path: #require(Self.clips[.upright]))
        #expect(decoded.format == .quickTime && decoded.clip?.codec == "hevc")
        #expect((decoded.image.width, decoded.image.height) == (240, 320) && decoded.fullSize == (240, 320))
        #expect((decoded.clip?.width, decoded.clip?.height) == (240, 320))
        let colours = decoded.image.quadrantColors
        #expect(zip(colours, [Self.blue, Self.red, Self.white, Self.green]).allSatisfy { $0.isClose(to: $1, tolerance: 12) }, "\(colours)")
    }

    /// Asked for a grid cell's size, the poster is scaled as it is converted: no larger than covers it.
    @Test func aPosterForACellIsNoLargerThanTheCell() throws {
        let decoded = try ImageDecoder.decode(path: #require(Self.clips[.upright]), atLeast: (60, 60))
        #expect((decoded.image.width, decoded.image.height) == (60, 80) && decoded.fullSize == (240, 320))
    }

    /// A phone's HDR clip (HLG, or PQ as HDR10) shows its colours as an SDR clip of them would: brought down as HDR
    /// HEICs are, in the poster and in the pictures that play. Shown as plain video, its orange would be far off (HLG is
    /// made to show a grey nearly right even so).
    @Test(arguments: [TestClips.Kind.hlg, .pq])
    func anHDRClipShowsItsColoursOnAnSDRScreen(kind: TestClips.Kind) throws {
        let path = try #require(Self.clips[kind])
        let expected = TestClips.hdrColours.map { RGBA(r: Int($0[0]), g: Int($0[1]), b: Int($0[2])) }
        let untouched = TestClips.hdrColours.map { HDRCoding.signal(sRGB: $0, hlg: kind == .hlg).map { Int($0 * 255) } }
        #expect(abs(untouched[0][0] - expected[0].r) + abs(untouched[0][1] - expected[0].g) + abs(untouched[0][2] - expected[0].b) > 40,
                "its raw signal is no SDR picture: \(untouched)")
        let poster = try ImageDecoder.decode(path: path).image
        let played = try #require(try AnimatedImage.open(file: FilePath(path))?.nextFrame(covering: nil)?.image)
        for picture in [poster, played] {
            let shown = [picture.rgba(x: 12, y: 32), picture.rgba(x: 52, y: 32)]
            #expect(zip(shown, expected).allSatisfy { $0.isClose(to: $1, tolerance: 5) }, "\(shown), expected \(expected)")
        }
        #expect(try ImageDecoder.decode(path: path).clip?.codec == "hevc")
    }

    @Test func aClipCutShortStillGivesItsPoster() throws {
        let decoded = try ImageDecoder.decode(path: #require(Self.clips[.cut]))
        #expect((decoded.image.width, decoded.image.height) == (320, 240))
        #expect(decoded.image.quadrantColors[0].isClose(to: Self.red, tolerance: 12))
        #expect(abs((decoded.clip?.duration ?? 0) - 4) < 0.1, "its index still says 4 s")
    }

    @Test func aTextFileNamedAsAClipIsNoPicture() throws {
        #expect(throws: ImageDecodeError.unknownFormat) { try ImageDecoder.decode(path: #require(Self.clips[.text])) }
        #expect(!ImageFormat.mayBeClip(FilePath(try #require(Self.clips[.text]))))
        #expect(ImageFormat.mayBeClip(FilePath(try #require(Self.clips[.tone]))))
    }

    /// A movie's brands with noise after them: one line that names the format, and no picture.
    @Test func noiseAfterAMoviesBrandsIsOneLine() throws {
        var noise = SystemRandomNumberGenerator()
        let brands: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        let bytes = brands + (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &noise) }
        let path = try Self.folder.write("noise.mp4", bytes)
        do {
            _ = try ImageDecoder.decode(path: path)
            Issue.record("noise decoded as a picture")
        } catch {
            #expect(error.description.hasPrefix("damaged MP4 data") && !error.description.contains("\n"), "\(error)")
        }
    }

    /// The date and camera come from the clip's own words, read without FFmpeg: Apple's creationdate with its zone.
    @Test func aClipsDateAndCameraAreItsOwn() throws {
        let tone = try #require(Self.clips[.tone])
        let facts = try #require(PhotoFacts.read(path: FilePath(tone)))
        let date = try #require(facts.date)
        #expect(date.utcOffset == 2 * 3600)
        #expect(date.components == (2023, 6, 1, 12, 34, 56))
        #expect(facts.camera == "Apple iPhone 13")
        #expect(PhotoFacts.read(path: FilePath(try #require(Self.clips[.silent])))?.date == nil, "a clip that says no date")
    }

    /// A WebM's (or Matroska's) date is its segment's DateUTC, shown on this machine's clock.
    @Test func aWebMsDateIsItsOwn() throws {
        let webm = try #require(Self.clips[.webm])
        let date = try #require(PhotoFacts.read(path: FilePath(webm))?.date)
        let offset = try #require(date.utcOffset)
        #expect(date.wallClock - Int64(offset) == 1_685_692_800, "2023-06-02 08:00:00 UTC: \(date.components), offset \(offset)")
    }

    /// Where a clip was filmed, as ISO 6709 writes it: Apple's degrees with a height, Android's without, and degrees and
    /// minutes; a latitude past the pole, or words, are none.
    @Test func aClipsPlaceIsReadAsCamerasWriteIt() throws {
        let android = QuickTimeMetadata.coordinates(iso6709: "+48.8584+002.2945/")
        #expect(android == PhotoDetails.Coordinates(latitude: 48.8584, longitude: 2.2945, altitude: nil))
        let apple = try #require(QuickTimeMetadata.coordinates(iso6709: "+37.3349-122.0090+010.000/"))
        #expect(apple.latitude == 37.3349 && apple.longitude == -122.009 && apple.altitude == 10)
        let minutes = try #require(QuickTimeMetadata.coordinates(iso6709: "-3352.30+15112.60/"))
        #expect(abs(minutes.latitude + 33.871667) < 1e-5 && abs(minutes.longitude - 151.21) < 1e-5, "\(minutes)")
        #expect(QuickTimeMetadata.coordinates(iso6709: "+99.0000+000.0000/") == nil && QuickTimeMetadata.coordinates(iso6709: "north") == nil)
    }

    /// A hostile WebM: an `Info` of 200,000 empty elements before its date, and a segment claiming more than the file.
    /// It is not read through (a few dozen small reads, where 200,000 were made): its date, past them, is not found.
    @Test func aWebMWhoseInfoNeverEndsIsNotReadThrough() throws {
        let header: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x87, 0x42, 0x82, 0x84] + Array("webm".utf8)
        let voids: [UInt8] = (0..<400_000).map { $0 % 2 == 0 ? 0xEC : 0x80 }
        let date: [UInt8] = [0x44, 0x61, 0x88] + [UInt8](repeating: 0, count: 8)
        let info: [UInt8] = [0x15, 0x49, 0xA9, 0x66, 0x01] + bigEndian(UInt64(voids.count + date.count), bytes: 7) + voids + date
        let segment: [UInt8] = [0x18, 0x53, 0x80, 0x67, 0x01] + bigEndian(UInt64(1) << 40, bytes: 7) + info
        let path = try Self.folder.write("endless.webm", header + segment)
        #expect(PhotoFacts.read(path: FilePath(path))?.date == nil)
    }

    private func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test(arguments: [("2023-06-01T12:34:56+0200", 7200), ("2023-06-01T12:34:56-05:30", -19800), ("2023-06-01T12:34:56Z", 0),
                      ("2023-06-01T12:34:56.123+0100", 3600)])
    func phonesDatesAreRead(text: String, offset: Int) throws {
        let date = try #require(CaptureDate(iso8601: text))
        #expect(date.utcOffset == offset && date.components == (2023, 6, 1, 12, 34, 56))
    }

    @Test func aClipsLengthReadsAsAClockShowsIt() {
        func text(_ seconds: Double) -> String { ClipFacts(duration: seconds, frameRate: 30, codec: "h264", hasSound: true, width: 1, height: 1).durationText }
        #expect([text(0.4), text(14.2), text(59.6), text(723), text(3723)] == ["0:00", "0:14", "1:00", "12:03", "1:02:03"])
    }
}

/// A Motion Photo (a JPEG with an MP4 appended, its XMP saying where), in Google's Camera form and the older GCamera
/// form: its decode finds the movie in place, whose frames play from where they lie; a JPEG whose XMP lies about it
/// has none.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct MotionPhotoTests {
    @Test(arguments: [TestClips.Kind.motionPhoto, .microVideo])
    func aMotionPhotosMovieIsFoundInItsJPEGAndPlaysFromThere(kind: TestClips.Kind) throws {
        let folder = try TemporaryFolder()
        let path = try #require(TestClips.make([kind], in: folder)[kind])
        let decoded = try ImageDecoder.decode(path: path)
        #expect(decoded.format == .jpeg && (decoded.image.width, decoded.image.height) == (320, 240), "the still")
        let movie = try #require(decoded.motion, "its movie is found")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(movie.offset + movie.length == Int64(size), "at the file's end")
        let frames = try #require(try AnimatedImage.open(file: FilePath(path), movie: movie))
        var numbers: [Int] = []
        while let frame = try frames.nextFrame(covering: nil) {
            numbers.append(TestClips.frameNumber(shownAs: frame.image.pixel(x: 160, y: 120)))
        }
        #expect(numbers == Array(0..<60), "the movie's pictures in turn: \(numbers)")
        let sound = try ClipSound(fd: PhotoFile.open(FilePath(path)), movie: movie)
        #expect(sound == nil, "the numbered movie has no sound")
    }

    @Test func xmpThatSaysOfNoMovieThatFitsFindsNone() {
        let camera = TestClips.motionPhotoXMP(movieLength: 5000)
        #expect(MotionPhoto.movie(inXMP: camera, fileSize: 20000) == EmbeddedMovie(offset: 15000, length: 5000))
        #expect(MotionPhoto.movie(inXMP: camera, fileSize: 4000) == nil, "longer than the file")
        #expect(MotionPhoto.movie(inXMP: TestClips.motionPhotoXMP(movieLength: -3), fileSize: 4000) == nil)
        #expect(MotionPhoto.movie(inXMP: "<GCamera:MicroVideo>1</GCamera:MicroVideo><GCamera:MicroVideoOffset>x</GCamera:MicroVideoOffset>",
                                  fileSize: 4000) == nil, "not a number")
        #expect(MotionPhoto.movie(inXMP: "<GCamera:MicroVideo>0</GCamera:MicroVideo><GCamera:MicroVideoOffset>100</GCamera:MicroVideoOffset>",
                                  fileSize: 4000) == nil, "not a micro video")
        #expect(MotionPhoto.movie(inXMP: "", fileSize: 4000) == nil)
    }

    /// The XMP says there is a movie, but the bytes there are no MP4: the still alone, no movie.
    @Test func aJPEGWhoseXMPPointsAtNoMovieIsAStill() throws {
        let folder = try TemporaryFolder()
        let path = try #require(TestClips.make([.microVideo], in: folder)[.microVideo])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let movie = try #require(try ImageDecoder.decode(data: bytes).motion)
        bytes.replaceSubrange(Int(movie.offset) + 4..<Int(movie.offset) + 8, with: Array("junk".utf8))
        #expect(try ImageDecoder.decode(data: bytes).motion == nil, "the movie's place holds no MP4")
        #expect(try ImageDecoder.decode(data: CameraJPEG.bytes(photo: TestClips.quadrants, thumbnail: nil)).motion == nil, "a plain JPEG")
    }
}
