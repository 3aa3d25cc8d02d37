import Cairo
import Foundation
import Pixels
import SystemPackage

/// A picture ready to show: upright pixels, and the upright size of the full picture in the file
/// (the pixels may be a reduced-size decode of it).
public struct DecodedImage: Sendable {
    public let image: PixelImage
    public let fullSize: (width: Int, height: Int)
    public let format: ImageFormat
    /// What was wrong with a file that still gave a picture ("truncated: …"), to be said once.
    public let problem: String?

    public init(image: PixelImage, fullSize: (width: Int, height: Int), format: ImageFormat, problem: String? = nil) {
        self.image = image
        self.fullSize = fullSize
        self.format = format
        self.problem = problem
    }
}

/// The one entry point for reading a photo file: the format comes from the content, the EXIF
/// orientation is applied, and every failure is an `ImageDecodeError` with a one-line reason.
public enum ImageDecoder {
    /// Decodes the file at `path`. With `atLeast` (upright pixels), a reduced-size decode that still
    /// covers that size is used when the format allows it, and larger results are scaled down.
    public static func decode(file: FilePath, atLeast: (width: Int, height: Int)? = nil) throws(ImageDecodeError) -> DecodedImage {
        let data = try PhotoFile.read(file)
        return try decode(data: data, atLeast: atLeast)
    }

    /// `decode(file:atLeast:)` for a path given as text (a name that is UTF-8).
    public static func decode(path: String, atLeast: (width: Int, height: Int)? = nil) throws(ImageDecodeError) -> DecodedImage {
        try decode(file: FilePath(path), atLeast: atLeast)
    }

    public static func decode(data: [UInt8], atLeast: (width: Int, height: Int)? = nil) throws(ImageDecodeError) -> DecodedImage {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: data) else { throw .unknownFormat }

        let orientation = switch format {
        case .jpeg: ExifOrientation(jpeg: data)
        case .png: ExifOrientation(png: data)
        case .webp: ExifOrientation(webp: data)
        }
        // Ask the decoder in stored orientation.
        let storedAtLeast = atLeast.map { orientation.swapsAxes ? (width: $0.height, height: $0.width) : $0 }
        var full: (width: Int, height: Int)
        let decoded: PixelImage
        var problem: String?
        switch format {
        case .jpeg:
            (decoded, full, problem) = try JPEGDecoder.decode(data, atLeast: storedAtLeast)
        case .png:
            (decoded, full, problem) = try PNGDecoder.decode(data)
        case .webp:
            (decoded, full) = try WebPDecoder.decode(data, atLeast: storedAtLeast)
        }
        if orientation.swapsAxes { full = (full.height, full.width) }
        var image = orientation.apply(to: decoded)
        if let atLeast { image = try shrink(image, toCover: atLeast) }
        return DecodedImage(image: image, fullSize: full, format: format, problem: problem)
    }

    /// Scales down (never up) to the smallest size that still covers `target` on both axes.
    public static func shrink(_ image: PixelImage, toCover target: (width: Int, height: Int)) throws(ImageDecodeError) -> PixelImage {
        let scale = max(Double(target.width) / Double(image.width), Double(target.height) / Double(image.height))
        guard scale < 1 else { return image }
        let w = max(1, Int((Double(image.width) * scale).rounded(.up)))
        let h = max(1, Int((Double(image.height) * scale).rounded(.up)))
        do throws(CairoError) {
            return try image.scaled(toWidth: w, height: h)
        } catch {
            throw .drawing(error)
        }
    }
}
