import CAV
import Glibc
import Pixels

/// A clip's pictures one after the other, as an animation's frames: each decoded and scaled at once to the size
/// asked for (a 4K clip shown in a window is never converted at 4K), upright, and shown until the next one's time.
/// It reads its own copy of the clip's descriptor, where the file lies. Sound is not played here.
final class ClipFrames: AnimationSource {
    private let av: UnsafePointer<photozoom_av>
    /// The source the open clip reads; at a fixed address, as the C side keeps it.
    private let source: UnsafeMutablePointer<photozoom_clip_source>
    private let facts: UnsafeMutablePointer<photozoom_clip_facts>
    /// Nil once a rewind could not open it again.
    private var clip: OpaquePointer?
    private let format: String
    private let orientation: ExifOrientation
    /// The pictures' size as stored, px.
    private let stored: (width: Int, height: Int)
    /// The picture decoded ahead: its time says how long the one before it shows.
    private var ahead: (image: PixelImage, seconds: Double)?
    private var finished = false
    /// The end of the last picture decoded, s.
    private var shownUpTo = 0.0

    var size: (width: Int, height: Int) { orientation.upright(stored) }
    /// A clip plays once, and stops on its last picture.
    let loopCount = 1
    /// How long a picture shows when the next one's time is not known (the last), s.
    let frameInterval: Double
    /// Whether the file ended before its pictures did (a clip cut short): FFmpeg met damage or looked past the end,
    /// or the pictures stopped well before the length its index gives.
    var isCutShort: Bool {
        let length = facts.pointee.duration
        return facts.pointee.truncated != 0 || length > 0 && shownUpTo + max(0.2, 3 * frameInterval) < length
    }

    /// The clip open at `fd`, or the `movie` inside it (a Motion Photo's).
    init(fd: Int32, format: String, movie: EmbeddedMovie? = nil) throws(ImageDecodeError) {
        let (av, source) = try ClipSourceCopy.open(fd: fd, movie: movie, format: format)
        self.source = source
        facts = .allocate(capacity: 1)
        facts.initialize(to: photozoom_clip_facts())
        (self.av, self.format) = (av, format)
        var words = [CChar](repeating: 0, count: 256)
        guard let opened = photozoom_clip_open(av, source, facts, Self.threads, &words, Int32(words.count)) else {
            Self.release(source, facts)
            throw .corrupt(format: format, detail: String(cString: words))
        }
        clip = opened
        orientation = ClipDecoder.orientation(turning: Int(facts.pointee.rotation))
        stored = (Int(facts.pointee.width), Int(facts.pointee.height))
        frameInterval = facts.pointee.frame_rate > 0 ? 1 / facts.pointee.frame_rate : 1.0 / 30
        do throws(ImageDecodeError) {
            try ImageLimits.checkAnimation(width: stored.width, height: stored.height)
            try ClipDecoder.toneMap(opened, facts.pointee, format: format)
        } catch {
            photozoom_clip_close(clip)
            Self.release(source, facts)
            throw error
        }
    }

    deinit {
        photozoom_clip_close(clip)
        Self.release(source, facts)
    }

    /// The decoder's threads while it plays: one a core.
    static let threads = Int32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    private static func open(_ av: UnsafePointer<photozoom_av>, _ source: UnsafeMutablePointer<photozoom_clip_source>,
                             _ facts: UnsafeMutablePointer<photozoom_clip_facts>, format: String) -> OpaquePointer? {
        var words = [CChar](repeating: 0, count: 256)
        guard let clip = photozoom_clip_open(av, source, facts, threads, &words, Int32(words.count)) else { return nil }
        guard (try? ClipDecoder.toneMap(clip, facts.pointee, format: format)) != nil else {
            photozoom_clip_close(clip)
            return nil
        }
        return clip
    }

    private static func release(_ source: UnsafeMutablePointer<photozoom_clip_source>, _ facts: UnsafeMutablePointer<photozoom_clip_facts>) {
        ClipSourceCopy.close(source)
        facts.deallocate()
    }

    func nextFrame() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? { try nextFrame(covering: nil) }

    /// The next picture, covering `covering` (upright px), and how long it shows.
    func nextFrame(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        var current = ahead
        if current == nil { current = try decode(covering: covering) }
        guard let current else { return nil }
        ahead = try decode(covering: covering)
        let delay = ahead.map { $0.seconds - current.seconds } ?? frameInterval
        lastFrameTime = current.seconds
        return (current.image, delay > 0 && delay < 10 ? delay : frameInterval)
    }

    private func decode(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> (image: PixelImage, seconds: Double)? {
        guard !finished, let clip else { return nil }
        let size = ClipDecoder.coverSize(of: stored, covering: orientation.stored(covering))
        let picture = PixelImage(width: size.width, height: size.height, isOpaque: true)
        var seconds = 0.0
        var words = [CChar](repeating: 0, count: 256)
        let got = photozoom_clip_next_picture(clip, picture.bytes.assumingMemoryBound(to: UInt8.self), Int32(size.width), Int32(size.height),
                                              Int32(picture.stride), &seconds, &words, Int32(words.count))
        if got < 0 { throw .corrupt(format: format, detail: String(cString: words)) }
        guard got == 1 else {
            finished = true
            if isCutShort { throw .corrupt(format: format, detail: "cut short: its pictures end at \(tenths(shownUpTo)) s of its \(tenths(facts.pointee.duration)) s") }
            return nil
        }
        shownUpTo = seconds + frameInterval
        return (orientation.apply(to: picture), seconds)
    }

    private func tenths(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private(set) var lastFrameTime: Double?

    /// To the picture at `seconds`, from the key picture before it.
    func seek(to seconds: Double) throws(ImageDecodeError) -> Bool {
        guard let clip else { throw .corrupt(format: format, detail: "it could not be opened again to play") }
        var words = [CChar](repeating: 0, count: 256)
        guard photozoom_clip_seek(clip, seconds, &words, Int32(words.count)) == 0 else {
            throw .corrupt(format: format, detail: String(cString: words))
        }
        (ahead, finished) = (nil, false)
        return true
    }

    /// Back to the first picture: the clip is opened anew on the same descriptor.
    func rewind() throws(ImageDecodeError) {
        photozoom_clip_close(clip)
        source.pointee.position = 0
        (clip, ahead, finished) = (Self.open(av, source, facts, format: format), nil, false)
        if clip == nil { throw .corrupt(format: format, detail: "it could not be opened again to play") }
    }
}
