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
        /// H.264 with an AAC tone, 2 s at 30 fps, filmed 2023-06-01 12:34:56 +02:00 with an "Apple iPhone 13".
        case tone = "tone.mp4"
        /// HEVC from a phone held upright (its matrix turns it 90° clockwise), 1 s.
        case upright = "upright.mov"
        /// VP9 in WebM, 1 s.
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
        /// 8 s of `moving`'s pattern with its picture's number burned in (drawtext), and a 440 Hz AAC tone throughout.
        case song = "song.mp4"
    }

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
            try exiftool(["-Keys:CreationDate=2023:06:01 12:34:56+02:00", "-Keys:Make=Apple", "-Keys:Model=iPhone 13", path])
        case .upright:
            try ffmpeg(still + ["-t", "1", "-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=none", path])
            try exiftool(["-Rotation=90", path])
        case .webm:
            try ffmpeg(still + ["-t", "1", "-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime", path])
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
        case .text:
            try Data("a shopping list, not a film\n".utf8).write(to: URL(fileURLWithPath: path))
        }
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
