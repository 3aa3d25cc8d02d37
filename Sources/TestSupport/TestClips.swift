import Foundation
import Imaging
import Pixels

/// Clips as a phone's camera roll holds them, made with ffmpeg (and dated and turned with exiftool) in a test's own
/// folder, each from the same four-colour picture (`CameraJPEG.quadrants`: red, green, blue, white) so that a poster
/// shows how it stands.
public enum TestClips {
    /// The picture every clip shows, 320x240.
    public static let quadrants = CameraJPEG.quadrants(width: 320, height: 240)

    /// What each clip is.
    public enum Kind: String, CaseIterable, Sendable {
        /// H.264 with an AAC tone, 2 s at 30 fps, filmed 2023-06-01 12:34:56 +02:00 with an "Apple iPhone 13" at
        /// 37.3349° N, 122.009° W, 10 m up.
        case tone = "tone.mp4"
        /// HEVC from a phone held upright (its matrix turns it 90° clockwise), 1 s.
        case upright = "upright.mov"
        /// VP9 in WebM, 1 s, made 2023-06-02 08:00:00 UTC (its `DateUTC`).
        case webm = "bars.webm"
        /// H.264 in Matroska with no sound, 1 s.
        case silent = "silent.mkv"
        /// Like `tone`, 4 s, its last half cut off.
        case cut = "cut.mp4"
        /// A text file named as a clip.
        case text = "notes.mp4"
        /// ffmpeg's moving test pattern (`testsrc2`), H.264, 2 s at 30 fps: every picture differs from the one before.
        case moving = "moving.mp4"
        /// 2 s at 30 fps, lossless H.264, each picture one flat grey whose level is its number (`frameNumber`).
        case numbered = "numbered.mp4"
        /// A Google Motion Photo in the Camera form (a `Container:Directory` in its XMP): the quadrants' JPEG with
        /// `numbered` appended.
        case motionPhoto = "PXL_20230601_123456789.MP.jpg"
        /// A Motion Photo in the older GCamera form (`MicroVideoOffset`), as Samsung's and older Pixels write it.
        case microVideo = "MVIMG_20230601_123456.jpg"
        /// 8 s of `moving`'s pattern with its picture's number burned in (drawtext), and a 440 Hz AAC tone throughout.
        case song = "song.mp4"
        /// HEVC 10-bit in BT.2020 with the HLG curve, as an iPhone films HDR: `hdrColours` (left half, right half)
        /// coded so that an SDR white is BT.2408's reference white, 64x64, 1 s.
        case hlg = "hlg.mov"
        /// The same in PQ (SMPTE ST 2084, an HDR10 clip).
        case pq = "pq.mp4"
    }

    /// What an HDR clip's halves show, sRGB red, green and blue: an orange and a mid grey, both below where brighter light is rolled off.
    public static let hdrColours: [[UInt8]] = [[200, 120, 60], [128, 128, 128]]

    /// Which of `numbered`'s pictures a pixel of it shows: its grey is luma 20 + 3n, shown in full range.
    public static func frameNumber(shownAs pixel: UInt32) -> Int {
        let green = Double((pixel >> 8) & 0xFF)
        return Int(((green * 219 / 255 + 16 - 20) / 3).rounded())
    }

    public static var isInstalled: Bool { DesktopTools.has("ffmpeg") && DesktopTools.has("exiftool") }

    /// Makes `kinds` in `folder`; their paths, by kind.
    @discardableResult
    public static func make(_ kinds: [Kind] = Kind.allCases, in folder: TemporaryFolder) throws -> [Kind: String] {
        let picture = try folder.write(".quadrants.png", PNGWriter.encode(quadrants)!)
        var made: [Kind: String] = [:]
        for kind in kinds {
            let path = folder.path + "/" + kind.rawValue
            try make(kind, at: path, from: picture)
            made[kind] = path
        }
        try FileManager.default.removeItem(atPath: picture)
        return made
    }

    private static func make(_ kind: Kind, at path: String, from picture: String) throws {
        let still = ["-loop", "1", "-framerate", "30", "-i", picture]
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
        let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"]
        switch kind {
        case .tone:
            try ffmpeg(still + tone + ["-t", "2"] + h264 + ["-c:a", "aac", "-movflags", "+faststart", path])
            try exiftool(["-Keys:CreationDate=2023:06:01 12:34:56+02:00", "-Keys:Make=Apple", "-Keys:Model=iPhone 13",
                          "-Keys:GPSCoordinates=37.3349, -122.0090, 10", path])
        case .upright:
            try ffmpeg(still + ["-t", "1", "-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=none", path])
            try exiftool(["-Rotation=90", path])
        case .webm:
            try ffmpeg(still + ["-t", "1", "-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime",
                                "-metadata", "creation_time=2023-06-02T08:00:00Z", path])
        case .silent:
            try ffmpeg(still + ["-t", "1"] + h264 + [path])
        case .cut:
            try ffmpeg(still + tone + ["-t", "4"] + h264 + ["-c:a", "aac", "-movflags", "+faststart", path])
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        case .moving:
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2"] + h264 + [path])
        case .numbered:
            try ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=320x240:r=30:d=2,format=yuv420p,geq=lum='20+3*N':cb=128:cr=128",
                        "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", path])
        case .song:
            let number = "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='%{n}':fontsize=48:fontcolor=white:box=1:boxcolor=black:x=20:y=20"
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30"] + tone + ["-vf", number, "-t", "8"] + h264
                       + ["-c:a", "aac", "-movflags", "+faststart", path])
        case .hlg, .pq:
            try makeHDR(at: path, hlg: kind == .hlg)
        case .motionPhoto, .microVideo:
            try makeMotionPhoto(at: path, cameraForm: kind == .motionPhoto)
        case .text:
            try Data("a shopping list, not a film\n".utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The quadrants' JPEG, its XMP saying where its movie is (written by exiftool), and `numbered` appended.
    private static func makeMotionPhoto(at path: String, cameraForm: Bool) throws {
        let movie = path + ".movie.mp4"
        try make(.numbered, at: movie, from: "")
        defer { try? FileManager.default.removeItem(atPath: movie) }
        let mp4 = try Data(contentsOf: URL(fileURLWithPath: movie))
        try Data(CameraJPEG.bytes(photo: quadrants, thumbnail: nil)).write(to: URL(fileURLWithPath: path))
        if cameraForm {
            let xmp = path + ".xmp"
            defer { try? FileManager.default.removeItem(atPath: xmp) }
            try Data(motionPhotoXMP(movieLength: mp4.count).utf8).write(to: URL(fileURLWithPath: xmp))
            try exiftool(["-xmp<=" + xmp, path])
        } else {
            try exiftool(["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1", "-XMP-GCamera:MicroVideoOffset=\(mp4.count)", path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: mp4)
        try handle.close()
    }

    /// `hdrColours` as 16-bit BT.2020 R'G'B' in the HDR curve, encoded by ffmpeg as 10-bit 4:2:0 with its colour tags.
    private static func makeHDR(at path: String, hlg: Bool) throws {
        let halves = hdrColours.map { colour in HDRCoding.signal(sRGB: colour, hlg: hlg).map { UInt16(($0 * 65535).rounded()) } }
        var row: [UInt16] = []
        for x in 0..<64 { row += halves[x < 32 ? 0 : 1] }
        let frame = Array(repeating: row, count: 64).joined()
        let raw = path + ".rgb48"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try Data(Array(repeating: frame, count: 30).joined().flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: raw))
        let curve = hlg ? "arib-std-b67" : "smpte2084"
        try ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb48le", "-s", "64x64", "-framerate", "30", "-i", raw,
                    "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le", "-c:v", "libx265", "-x265-params", "log-level=none",
                    "-tag:v", "hvc1", "-color_primaries", "bt2020", "-color_trc", curve, "-colorspace", "bt2020nc", "-color_range", "tv", path])
    }

    /// The Motion Photo format 1.0's XMP: the primary picture, then the movie of `movieLength` bytes after it.
    public static func motionPhotoXMP(movieLength: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:Camera="http://ns.google.com/photos/1.0/camera/"
           xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
           Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1" Camera:MotionPhotoPresentationTimestampUs="0">
          <Container:Directory><rdf:Seq>
           <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>
           <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(movieLength)"/></rdf:li>
          </rdf:Seq></Container:Directory>
         </rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let run = try DesktopTools.run("ffmpeg", ["-loglevel", "error", "-y"] + arguments, seconds: 60)
        guard run.status == 0 else { throw ToolFailed(name: "ffmpeg", arguments: arguments) }
    }

    private static func exiftool(_ arguments: [String]) throws {
        let run = try DesktopTools.run("exiftool", ["-q", "-overwrite_original"] + arguments)
        guard run.status == 0 else { throw ToolFailed(name: "exiftool", arguments: arguments) }
    }

    public struct ToolFailed: Error, CustomStringConvertible {
        let name: String
        let arguments: [String]
        public var description: String { "\(name) failed: \(arguments.joined(separator: " "))" }
    }
}
