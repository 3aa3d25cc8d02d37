import Glibc
import Pixels
import SystemPackage

/// Frames that play, one after the other, each at the size asked for: an animated picture decoded here
/// (`AnimatedImage`) or in a decoder process of its own.
public protocol AnimationFrames: AnyObject {
    /// How many times it plays; 0 for ever. Known for certain once the first loop has been read.
    var loopCount: Int { get }
    /// The next frame, shrunk to the smallest size that still covers `covering`; nil after the last one.
    func nextFrame(covering: (width: Int, height: Int)?) throws(ImageDecodeError) -> AnimatedImage.Frame?
    /// Back to before the first frame.
    func rewind() throws(ImageDecodeError)
    /// To the frame showing at `seconds` from the start: the next one given.
    func seek(to seconds: Double) throws(ImageDecodeError)
}

/// An animated picture opened to play: its frames one after the other, each at the size asked for,
/// in the target's colours, with how long it shows. It holds the file and one canvas, never the
/// frames it gave.
public final class AnimatedImage: AnimationFrames {
    /// A frame shows at least this long, s; a delay under it counts as `defaultDelay`, as browsers
    /// count it (a GIF of 0 ms frames is meant to be slow, not a blur).
    public static let shortestDelay = 0.02
    public static let defaultDelay = 0.1

    public struct Frame: Sendable {
        public let image: PixelImage
        /// How long it shows, s.
        public let duration: Double
        /// When it shows, s from the start of a play.
        public let time: Double

        public init(image: PixelImage, duration: Double, time: Double) {
            (self.image, self.duration, self.time) = (image, duration, time)
        }
    }

    private let source: any AnimationSource
    private let colour: ColourTarget
    private let description: ColourDescription
    public let format: ImageFormat
    /// The canvas, px.
    public var size: (width: Int, height: Int) { source.size }
    /// How many times it plays; 0 for ever. Known for certain once the first loop has been read.
    public var loopCount: Int { source.loopCount }

    /// The frames of the file at `path`, decoded where `ImageDecoder` decodes (a decoder process of their
    /// own under the sandbox); nil when it is a still picture.
    /// `movie`: the frames of the movie inside the file (a Motion Photo's), read in place.
    public static func open(file path: FilePath, colour: ColourTarget = .sRGB, movie: EmbeddedMovie? = nil) throws(ImageDecodeError)
        -> (any AnimationFrames)? {
        if let router = ImageDecoder.router { return try router.openAnimation(file: path, colour: colour, movie: movie) }
        let fd = try PhotoFile.open(path)
        defer { close(fd) }
        return try open(fd: fd, colour: colour, movie: movie)
    }

    /// The frames of a file already open (or of the `movie` inside it), decoded here: a clip's read where it lies (from
    /// its own copy of `fd`), any other file's from its bytes.
    public static func open(fd: Int32, colour: ColourTarget = .sRGB, movie: EmbeddedMovie? = nil) throws(ImageDecodeError) -> AnimatedImage? {
        let head = try PhotoFile.head(fd: fd, length: ImageFormat.sniffLength, from: movie?.offset ?? 0)
        guard let format = ImageFormat(sniffing: head), format.capabilities.contains(.clip) else {
            if movie != nil { throw .corrupt(format: "Motion Photo", detail: "its movie is not a clip") }
            return try open(data: PhotoFile.read(fd: fd), colour: colour)
        }
        return AnimatedImage(source: try ClipFrames(fd: fd, format: format.name, movie: movie), format: format, colour: colour,
                             description: .sRGB)
    }

    /// The file's frames, or nil when it is a still picture (or its format never moves).
    public static func open(data: [UInt8], colour: ColourTarget = .sRGB) throws(ImageDecodeError) -> AnimatedImage? {
        guard let format = ImageFormat(sniffing: data), let open = format.animation?.open else { return nil }
        let output = try format.decode(DecodeRequest(data: data, atLeast: (1, 1)))
        guard output.isAnimated else { return nil }
        return AnimatedImage(source: try open(data), format: format, colour: colour, description: output.colour)
    }

    private init(source: any AnimationSource, format: ImageFormat, colour: ColourTarget, description: ColourDescription) {
        self.source = source
        self.format = format
        self.colour = colour
        self.description = description
    }

    /// The next frame, shrunk to the smallest size that still covers `covering` (never enlarged);
    /// nil after the last one.
    public func nextFrame(covering: (width: Int, height: Int)? = nil) throws(ImageDecodeError) -> Frame? {
        guard let (image, delay) = try source.nextFrame(covering: covering) else { return nil }
        let shown = try covering.map { covering throws(ImageDecodeError) in try ImageDecoder.shrink(image, toCover: covering) } ?? image
        colour.convert(shown, from: description)
        // A clip's picture shows for its own time (16.7 ms at 60 fps): browsers' floor is for GIFs.
        let duration = format.capabilities.contains(.clip) ? delay : Self.shownDuration(delay)
        let time = source.lastFrameTime ?? elapsed
        elapsed = time + duration
        return Frame(image: shown, duration: duration, time: time)
    }

    /// The end of the last frame given, s from the start of the play.
    private var elapsed = 0.0

    /// Back to before the first frame.
    public func rewind() throws(ImageDecodeError) {
        try source.rewind()
        elapsed = 0
    }

    /// To the frame showing at `seconds`: a clip seeks there; other animations play from the start up to it.
    public func seek(to seconds: Double) throws(ImageDecodeError) {
        if try source.seek(to: seconds) {
            elapsed = seconds
            return
        }
        try rewind()
        while elapsed < seconds, let (_, delay) = try source.nextFrame(covering: (1, 1)) {
            let duration = Self.shownDuration(delay)
            if elapsed + duration > seconds { return try seekBack(to: elapsed) }
            elapsed += duration
        }
    }

    /// To the frame starting at `start`, played up to again from the first (a frame once given cannot be given again).
    private func seekBack(to start: Double) throws(ImageDecodeError) {
        try rewind()
        while elapsed + 1e-9 < start, let (_, delay) = try source.nextFrame(covering: (1, 1)) { elapsed += Self.shownDuration(delay) }
    }

    /// How long a frame the file gives `delay` s shows.
    public static func shownDuration(_ delay: Double) -> Double { delay < shortestDelay ? defaultDelay : delay }
}
