import Cairo
import Foundation
import Pixels
import SystemPackage
import Threads

/// A picture ready to show: upright pixels, and the upright size of the full picture in the file
/// (the pixels may be a reduced-size decode of it).
public struct DecodedImage: Sendable {
    public let image: PixelImage
    public let fullSize: (width: Int, height: Int)
    public let format: ImageFormat
    /// What was wrong with a file that still gave a picture ("truncated: …"), to be said once.
    public let problem: String?
    /// The file holds frames that play; the picture is the first.
    public let isAnimated: Bool
    /// A clip's facts; the picture is its poster. Nil for a photo.
    public let clip: ClipFacts?
    /// A Motion Photo's movie, where it lies in the file.
    public var motion: EmbeddedMovie?

    public init(image: PixelImage, fullSize: (width: Int, height: Int), format: ImageFormat, problem: String? = nil,
                isAnimated: Bool = false, clip: ClipFacts? = nil) {
        self.image = image
        self.fullSize = fullSize
        self.format = format
        self.problem = problem
        self.isAnimated = isAnimated
        self.clip = clip
    }

    /// Drawn from shapes: a larger decode is always sharper (no full size caps it).
    public var isScalable: Bool { format.capabilities.contains(.vector) }
}

/// The one entry point for reading a photo file: the format comes from the content, the orientation
/// is applied, the colours are converted into the target's, and every failure is an
/// `ImageDecodeError` with a one-line reason.
public enum ImageDecoder {
    /// Where files' bytes are decoded: nil in this process; else a pool of confined decoder processes.
    private static let elsewhere = Locked<(any PictureDecoding)?>(nil)

    /// Sends every decode of a file's bytes (photos, thumbnails, cache entries, embedded thumbnails) to
    /// `decoder` from now on; nil decodes them here again.
    public static func route(through decoder: (any PictureDecoding)?) { elsewhere.withLock { $0 = decoder } }

    /// The decoder files are sent to, when it is not this process.
    public static var router: (any PictureDecoding)? { elsewhere.withLock { $0 } }

    /// Decodes the file at `path`. With `atLeast` (upright pixels), a reduced-size decode that still
    /// covers that size is used when the format allows it, and larger results are scaled down. The
    /// pixels are in `colour`'s space (sRGB by default).
    public static func decode(file: FilePath, atLeast: (width: Int, height: Int)? = nil,
                              colour: ColourTarget = .sRGB) throws(ImageDecodeError) -> DecodedImage {
        if let router { return try router.decode(file: file, atLeast: atLeast, colour: colour) }
        let fd = try PhotoFile.open(file)
        defer { close(fd) }
        return try decodeHere(fd: fd, atLeast: atLeast, colour: colour)
    }

    /// `decode(file:)` of a file already open, in this process (what a decoder process runs): a clip is read where it
    /// lies, any other file whole (`PhotoFile.read(fd:)`).
    public static func decodeHere(fd: Int32, atLeast: (width: Int, height: Int)? = nil, colour: ColourTarget = .sRGB,
                                  inMemoryFile: Bool = false) throws(ImageDecodeError) -> DecodedImage {
        let head = try PhotoFile.head(fd: fd, length: ImageFormat.sniffLength)
        guard let format = ImageFormat(sniffing: head), format.capabilities.contains(.clip) else {
            return try decodeHere(data: PhotoFile.read(fd: fd), atLeast: atLeast, colour: colour, inMemoryFile: inMemoryFile)
        }
        return try decoded(format.decode(DecodeRequest(data: head, atLeast: atLeast, file: fd)), format: format,
                           atLeast: atLeast, colour: colour, inMemoryFile: inMemoryFile)
    }

    /// `decode(file:atLeast:)` for a path given as text (a name that is UTF-8).
    public static func decode(path: String, atLeast: (width: Int, height: Int)? = nil,
                              colour: ColourTarget = .sRGB) throws(ImageDecodeError) -> DecodedImage {
        try decode(file: FilePath(path), atLeast: atLeast, colour: colour)
    }

    /// Decodes bytes already read (a thumbnail cache's entry, a pasted picture), as `decode(file:)` does.
    public static func decode(data: [UInt8], atLeast: (width: Int, height: Int)? = nil,
                              colour: ColourTarget = .sRGB) throws(ImageDecodeError) -> DecodedImage {
        if let router { return try router.decode(data: data, atLeast: atLeast, colour: colour) }
        return try decodeHere(data: data, atLeast: atLeast, colour: colour)
    }

    /// `decode(data:)` in this process, whatever the route (what a decoder process runs). `inMemoryFile`: a picture
    /// shrunk is made in a memory file, which a decoder sends as it is.
    public static func decodeHere(data: [UInt8], atLeast: (width: Int, height: Int)? = nil,
                                  colour: ColourTarget = .sRGB, inMemoryFile: Bool = false) throws(ImageDecodeError) -> DecodedImage {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: data) else { throw .unknownFormat }
        var decoded = try decoded(format.decode(DecodeRequest(data: data, atLeast: atLeast)), format: format,
                                  atLeast: atLeast, colour: colour, inMemoryFile: inMemoryFile)
        if format == .jpeg { decoded.motion = MotionPhoto.movie(in: data) }
        return decoded
    }

    /// A decoder's output shrunk to cover `atLeast` and in `colour`'s space.
    private static func decoded(_ output: DecoderOutput, format: ImageFormat, atLeast: (width: Int, height: Int)?,
                                colour: ColourTarget, inMemoryFile: Bool) throws(ImageDecodeError) -> DecodedImage {
        var image = output.image
        if let atLeast { image = try shrink(image, toCover: atLeast, toMemoryFile: inMemoryFile) }
        // After the shrink: fewer pixels to convert. A shrink that changed nothing returns the
        // decoder's own image, which no one else holds yet.
        colour.convert(image, from: output.colour)
        return DecodedImage(image: image, fullSize: output.fullSize, format: format, problem: output.problem,
                            isAnimated: output.isAnimated, clip: output.clip)
    }

    /// Scales down (never up) to the smallest size that still covers `target` on both axes.
    public static func shrink(_ image: PixelImage, toCover target: (width: Int, height: Int),
                              toMemoryFile: Bool = false) throws(ImageDecodeError) -> PixelImage {
        let scale = max(Double(target.width) / Double(image.width), Double(target.height) / Double(image.height))
        guard scale < 1 else { return image }
        let w = max(1, Int((Double(image.width) * scale).rounded(.up)))
        let h = max(1, Int((Double(image.height) * scale).rounded(.up)))
        do throws(CairoError) {
            return try image.scaled(toWidth: w, height: h, toMemoryFile: toMemoryFile)
        } catch {
            throw .drawing(error)
        }
    }
}

/// A decoder of files' bytes other than this process's own libraries: the sandbox's pool.
public protocol PictureDecoding: Sendable {
    func decode(file: FilePath, atLeast: (width: Int, height: Int)?, colour: ColourTarget) throws(ImageDecodeError) -> DecodedImage
    func decode(data: [UInt8], atLeast: (width: Int, height: Int)?, colour: ColourTarget) throws(ImageDecodeError) -> DecodedImage
    /// `EmbeddedThumbnail.read(path:colour:)`'s picture.
    func embeddedThumbnail(file: FilePath, colour: ColourTarget) -> PixelImage?
    /// `AnimatedImage.open(file:colour:movie:)`'s frames.
    func openAnimation(file: FilePath, colour: ColourTarget, movie: EmbeddedMovie?) throws(ImageDecodeError) -> (any AnimationFrames)?
    /// `ClipSound.open(file:movie:)`'s sound.
    func openSound(file: FilePath, movie: EmbeddedMovie?) throws(ImageDecodeError) -> (any SoundSource)?
}
