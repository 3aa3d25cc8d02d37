import Pixels

/// The TIFF/EXIF Orientation tag (0x0112): how the stored pixels must be turned to stand upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1                 // as stored
    case upMirrored = 2         // mirror left-right
    case down = 3               // rotate 180°
    case downMirrored = 4       // mirror top-bottom
    case leftMirrored = 5       // transpose (mirror about the top-left/bottom-right diagonal)
    case right = 6              // rotate 90° clockwise
    case rightMirrored = 7      // transverse (mirror about the other diagonal)
    case left = 8               // rotate 90° counter-clockwise

    /// Whether width and height trade places when the picture is turned upright.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation that shows the picture as this one does, then turned a quarter `clockwise` (or not).
    public func turned(clockwise: Bool) -> ExifOrientation {
        // Clockwise and counter-clockwise after each of 1…8, worked out on the pixels (`apply`).
        let (cw, ccw): (ExifOrientation, ExifOrientation) = switch self {
        case .up: (.right, .left)
        case .upMirrored: (.rightMirrored, .leftMirrored)
        case .down: (.left, .right)
        case .downMirrored: (.leftMirrored, .rightMirrored)
        case .leftMirrored: (.upMirrored, .downMirrored)
        case .right: (.down, .up)
        case .rightMirrored: (.downMirrored, .upMirrored)
        case .left: (.up, .down)
        }
        return clockwise ? cw : ccw
    }

    /// An upright size as the pixels are stored (what a decoder is asked for).
    func stored(_ size: (width: Int, height: Int)?) -> (width: Int, height: Int)? { size.map(upright) }

    /// A stored size turned upright.
    func upright(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        swapsAxes ? (size.height, size.width) : size
    }

    /// The upright picture.
    public func apply(to image: PixelImage) -> PixelImage {
        if self == .up { return image }
        let sw = image.width, sh = image.height
        let out = PixelImage(width: swapsAxes ? sh : sw, height: swapsAxes ? sw : sh, isOpaque: image.isOpaque)
        let ow = out.width, oh = out.height
        for y in 0..<oh {
            for x in 0..<ow {
                // The stored pixel that lands at upright (x, y).
                let (sx, sy): (Int, Int)
                switch self {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (sw - 1 - x, y)
                case .down: (sx, sy) = (sw - 1 - x, sh - 1 - y)
                case .downMirrored: (sx, sy) = (x, sh - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)
                case .right: (sx, sy) = (y, sh - 1 - x)
                case .rightMirrored: (sx, sy) = (sw - 1 - y, sh - 1 - x)
                case .left: (sx, sy) = (sw - 1 - y, x)
                }
                out.setPixel(x: x, y: y, image.pixel(x: sx, y: sy))
            }
        }
        return out
    }

    /// Reads the tag from a JPEG's APP1 "Exif" segment; `.up` when there is none or it is damaged.
    public init(jpeg bytes: [UInt8]) {
        self = TIFFStructure(jpeg: bytes[...]).flatMap(ExifOrientation.init(tiff:)) ?? .up
    }

    /// Reads the tag from a PNG's `eXIf` chunk; `.up` without one.
    public init(png b: [UInt8]) {
        self = TIFFStructure(png: b[...]).flatMap(ExifOrientation.init(tiff:)) ?? .up
    }

    /// Reads the tag from a WebP's `EXIF` chunk; `.up` without one.
    public init(webp b: [UInt8]) {
        self = TIFFStructure(webp: b[...]).flatMap(ExifOrientation.init(tiff:)) ?? .up
    }

    /// Reads the tag (0x0112) from IFD0.
    init?(tiff: TIFFStructure) {
        guard let entry = tiff.directory(0)?.first(where: { $0.tag == 0x0112 }), entry.type == 3,
              let value = tiff.integer(entry), let orientation = ExifOrientation(rawValue: value) else { return nil }
        self = orientation
    }
}
