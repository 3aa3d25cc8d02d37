import Glibc
import Cairo

/// Why a file could not be shown. `description` is the one-line reason given to the user.
public enum ImageDecodeError: Error, Equatable, CustomStringConvertible, Codable {
    case unreadable(String)
    /// Gone between the folder's listing and the decode (removed or renamed).
    case vanished
    case empty
    case unknownFormat
    case tooLarge(width: Int, height: Int)
    case corrupt(format: String, detail: String)
    /// A valid file of a kind the decoder can't handle (a 12-bit JPEG).
    case unsupported(format: String, detail: String)
    /// The library that decodes the format could not be opened.
    case libraryMissing(format: String, reason: String)
    /// Failed when it was last tried, and the file has not changed since (the thumbnail cache's
    /// record): the reason then.
    case failedBefore(String)
    /// Decoded, but Cairo could not make what showing it takes (out of memory).
    case drawing(CairoError)
    /// The decoder process died on the file (a crash, or its memory limit): the signal that ended it.
    case decoderCrashed(format: String, signal: Int32)
    /// The decoder process was still at it when its time ran out (and was stopped).
    case decoderTimedOut(seconds: Int)

    public var description: String {
        switch self {
        case .unreadable(let reason): return "cannot read the file: \(reason)"
        case .vanished: return "it vanished after the folder was read (no such file)"
        case .empty: return "the file is empty"
        case .unknownFormat: return "not an image the viewer knows (\(ImageFormat.namesInWords))"
        case .tooLarge(let w, let h):
            return "the image claims \(w)×\(h) pixels, over the limit of "
                + "\(ImageLimits.maxSide) px a side and \(ImageLimits.maxPixels / 1_000_000) megapixels"
        case .corrupt(let format, let detail): return "damaged \(format) data: \(detail)"
        case .unsupported(let format, let detail): return "unsupported \(format): \(detail)"
        case .libraryMissing(let format, let reason): return "\(format) can't be decoded here: \(reason)"
        case .drawing(let error): return error.description
        case .failedBefore(let reason): return "\(reason) (as when it was last tried; the file has not changed since)"
        case .decoderCrashed(let format, let signal): return "the \(format) decoder crashed on it (signal \(signal))"
        case .decoderTimedOut(let seconds): return "its decode took longer than \(seconds) s"
        }
    }

    /// Whether trying the same bytes again would fail the same way: the file's content is at fault, not
    /// the moment (a denied or vanished file, memory, a library not installed yet).
    public var isLasting: Bool {
        switch self {
        case .empty, .unknownFormat, .tooLarge, .corrupt, .unsupported, .failedBefore, .decoderTimedOut: true
        // SIGKILL comes from outside the decoder (the kernel's out-of-memory killer, a person), and SIGSYS from
        // its confinement (a call this version's table lacks, as well as a hostile one): not surely the file's.
        case .decoderCrashed(_, let signal): signal != SIGKILL && signal != SIGSYS
        case .unreadable, .vanished, .drawing, .libraryMissing: false
        }
    }
}

/// The largest picture the viewer agrees to decode. Cairo cannot hold a surface wider or taller
/// than 32767 px, and 250 megapixels of ARGB is already 1 GB.
public enum ImageLimits {
    public static let maxSide = 32767
    public static let maxPixels = 250_000_000

    /// An animation's canvas is held whole, with the frames decoded ahead: a smaller bound (an 8K
    /// animation fits).
    public static let maxAnimationPixels = 50_000_000

    /// The limits an animation's canvas must keep.
    static func checkAnimation(width: Int, height: Int) throws(ImageDecodeError) {
        try check(width: width, height: height)
        guard width <= maxAnimationPixels / height else { throw .tooLarge(width: width, height: height) }
    }

    /// The limits a decode must keep (a format that can only decode at full size).
    static func check(width: Int, height: Int) throws(ImageDecodeError) {
        try checkPixels(width: width, height: height)
        guard width <= maxSide, height <= maxSide else { throw .tooLarge(width: width, height: height) }
    }

    /// A claim the file's bytes could not hold even at its format's best compression (`pixelsPerByte` at
    /// most): refused before anything is allocated, as a damaged file. A 100-byte PNG that claims
    /// 16000×15000 would otherwise cost a gigabyte of rows.
    static func checkClaim(format: String, width: Int, height: Int, bytes: Int, pixelsPerByte: Int) throws(ImageDecodeError) {
        guard bytes < Int.max / pixelsPerByte, width > (bytes * pixelsPerByte) / height else { return }
        throw .corrupt(format: format, detail: "its \(bytes) bytes can't hold the \(width)×\(height) pixels it claims")
    }

    /// The pixel count alone: a format that decodes reduced can take a wider picture (a 40000×1000
    /// panorama) and bring its sides within `maxSide`.
    static func checkPixels(width: Int, height: Int) throws(ImageDecodeError) {
        guard width > 0, height > 0 else { throw .corrupt(format: "image", detail: "zero size") }
        // Divided, not multiplied: a header's two 32-bit sides can overflow a product (found by the fuzzer).
        guard width <= maxPixels / height else { throw .tooLarge(width: width, height: height) }
    }

    /// `size` shrunk by one factor, as little as it takes, so that neither side passes `maxSide`.
    static func withinSides(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let scale = min(1, Double(maxSide) / Double(max(size.width, size.height)))
        return (max(1, Int((Double(size.width) * scale).rounded(.down))), max(1, Int((Double(size.height) * scale).rounded(.down))))
    }
}
