/// Why a file could not be shown. `description` is the one-line reason given to the user.
public enum ImageDecodeError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case empty
    case unknownFormat
    case tooLarge(width: Int, height: Int)
    case corrupt(format: String, detail: String)

    public var description: String {
        switch self {
        case .unreadable(let reason): return "cannot read the file: \(reason)"
        case .empty: return "the file is empty"
        case .unknownFormat: return "not a JPEG, PNG or WebP image"
        case .tooLarge(let w, let h):
            return "the image claims \(w)×\(h) pixels, over the limit of "
                + "\(ImageLimits.maxSide) px a side and \(ImageLimits.maxPixels / 1_000_000) megapixels"
        case .corrupt(let format, let detail): return "damaged \(format) data: \(detail)"
        }
    }
}

/// The largest picture the viewer agrees to decode. Cairo cannot hold a surface wider or taller
/// than 32767 px, and 250 megapixels of ARGB is already 1 GB.
public enum ImageLimits {
    public static let maxSide = 32767
    public static let maxPixels = 250_000_000

    static func check(width: Int, height: Int) throws(ImageDecodeError) {
        guard width > 0, height > 0 else { throw .corrupt(format: "image", detail: "zero size") }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}
