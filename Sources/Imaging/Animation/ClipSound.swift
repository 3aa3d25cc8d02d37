import CAV
import Glibc
import SystemPackage

/// A stretch of a clip's sound: 16-bit samples, interleaved, `channels` of them a frame at `rate`, and the time of its
/// first frame in the clip.
public struct SoundPiece: Sendable, Equatable {
    public static let rate = Int(PHOTOZOOM_SOUND_RATE)
    public static let channels = Int(PHOTOZOOM_SOUND_CHANNELS)

    public var samples: [Int16]
    /// s from the clip's start.
    public var seconds: Double

    public init(samples: [Int16], seconds: Double) {
        (self.samples, self.seconds) = (samples, seconds)
    }

    public var frames: Int { samples.count / Self.channels }
    public var duration: Double { Double(frames) / Double(Self.rate) }
}

/// A clip's sound, piece after piece: decoded here (`ClipSound`) or in a decoder process of its own.
public protocol SoundSource: AnyObject {
    /// At least `seconds` of sound (less at the clip's end); nil after the last.
    func nextPiece(atLeast seconds: Double) throws(ImageDecodeError) -> SoundPiece?
    /// To `seconds` from the start: the next piece begins there.
    func seek(to seconds: Double) throws(ImageDecodeError)
}

/// A clip's sound decoded and resampled for the sound server, read from its own copy of the clip's descriptor where the
/// file lies (beside the pictures', which read theirs).
public final class ClipSound: SoundSource {
    private let source: UnsafeMutablePointer<photozoom_clip_source>
    private let sound: OpaquePointer
    private var finished = false

    /// The sound of the clip open at `fd` (or of the `movie` inside it); nil when it has none. Thrown: FFmpeg is missing.
    public init?(fd: Int32, movie: EmbeddedMovie? = nil) throws(ImageDecodeError) {
        let (av, source) = try ClipSourceCopy.open(fd: fd, movie: movie, format: "clip")
        self.source = source
        var words = [CChar](repeating: 0, count: 256)
        guard let opened = photozoom_clip_sound_open(av, source, &words, Int32(words.count)) else {
            ClipSourceCopy.close(source)
            return nil
        }
        sound = opened
    }

    deinit {
        photozoom_clip_sound_close(sound)
        ClipSourceCopy.close(source)
    }

    /// The sound of the clip at `path`, decoded where `ImageDecoder` decodes (a decoder process of its own under the
    /// sandbox); nil when it has none.
    public static func open(file path: FilePath, movie: EmbeddedMovie? = nil) throws(ImageDecodeError) -> (any SoundSource)? {
        if let router = ImageDecoder.router { return try router.openSound(file: path, movie: movie) }
        let fd = try PhotoFile.open(path)
        defer { close(fd) }
        return try ClipSound(fd: fd, movie: movie)
    }

    /// Room for a piece of the longest frame a codec decodes at once (Vorbis's 8,192 samples, resampled up).
    private static let pieceCapacity = 32_768

    public func nextPiece(atLeast seconds: Double) throws(ImageDecodeError) -> SoundPiece? {
        var piece: SoundPiece?
        var buffer = [Int16](repeating: 0, count: Self.pieceCapacity * SoundPiece.channels)
        var words = [CChar](repeating: 0, count: 256)
        while !finished, (piece?.duration ?? 0) < seconds {
            var start = 0.0
            let frames = photozoom_clip_sound_next(sound, &buffer, Int32(Self.pieceCapacity), &start, &words, Int32(words.count))
            if frames < 0 { throw .corrupt(format: "clip", detail: String(cString: words)) }
            if frames == 0 { finished = true; break }
            let samples = buffer[0..<Int(frames) * SoundPiece.channels]
            if piece == nil { piece = SoundPiece(samples: Array(samples), seconds: start) } else { piece?.samples += samples }
        }
        return piece
    }

    public func seek(to seconds: Double) throws(ImageDecodeError) {
        var words = [CChar](repeating: 0, count: 256)
        guard photozoom_clip_sound_seek(sound, seconds, &words, Int32(words.count)) == 0 else {
            throw .corrupt(format: "clip", detail: String(cString: words))
        }
        finished = false
    }
}
