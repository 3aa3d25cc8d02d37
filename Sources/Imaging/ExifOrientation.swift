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

    /// The upright picture.
    public func apply(to image: PixelImage) -> PixelImage {
        if self == .up { return image }
        let sw = image.width, sh = image.height
        let out = swapsAxes ? PixelImage(width: sh, height: sw) : PixelImage(width: sw, height: sh)
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
        self = ExifOrientation.findExifPayload(inJPEG: bytes).flatMap(ExifOrientation.init(tiff:)) ?? .up
    }

    /// Reads the tag from IFD0 of a TIFF structure (the payload after "Exif\0\0").
    init?(tiff t: ArraySlice<UInt8>) {
        let b = Array(t)
        guard b.count >= 8 else { return nil }
        let little: Bool
        switch (b[0], b[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
                guard let o = ExifOrientation(rawValue: value) else { return nil }
                self = o
                return
            }
        }
        return nil
    }

    /// Walks the JPEG markers before the image data for APP1 "Exif\0\0".
    private static func findExifPayload(inJPEG b: [UInt8]) -> ArraySlice<UInt8>? {
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }   // start of scan / end of image
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let payload = b[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) {
                return payload.dropFirst(6)
            }
            i += 2 + length
        }
        return nil
    }
}
