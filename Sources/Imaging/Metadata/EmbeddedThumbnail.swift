import Glibc
import Pixels
import SystemPackage

/// The small picture a camera stores beside the photo, readable at once, so it can stand in for the grid thumbnail
/// and the viewer's first frame while the photo itself is decoded: a JPEG's EXIF thumbnail (IFD1, in the first
/// few kilobytes), or a HEIC's or AVIF's thumbnail item (a phone's 320x240, found through the file's boxes). It is
/// upright, and the black bars a camera adds to fit a wide photo in its 4:3 thumbnail are cropped off.
public enum EmbeddedThumbnail {
    /// An embedded thumbnail is small (160×120 by the EXIF standard); anything larger is not used.
    static let maxSide = 1024

    /// The upright embedded thumbnail of the file at `path`, in `colour`'s space (the photo's own profile applied,
    /// when the file holds it); nil when it has none (or the file is not a regular file, or the thumbnail is
    /// damaged).
    public static func read(path: FilePath, colour: ColourTarget = .sRGB) -> PixelImage? {
        if let router = ImageDecoder.router { return router.embeddedThumbnail(file: path, colour: colour) }
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd, colour: colour)
    }

    /// `read(path:colour:)` of a file already open, in this process.
    public static func read(fd: Int32, colour: ColourTarget = .sRGB) -> PixelImage? {
        // Enough to tell the format; a JPEG's EXIF block is read on from there (a HEIC's boxes, by libheif).
        guard var head = FileHead.read(fd: fd, length: ImageFormat.sniffLength) else { return nil }
        switch ImageFormat(sniffing: head[...]) {
        case .heic?, .avif?:
            guard let item = HEIFDecoder.thumbnailItem(fd: fd, maxSide: maxSide) else { return nil }
            colour.convert(item.image, from: item.colour)
            return item.image
        case .jpeg?:
            if head.count == ImageFormat.sniffLength {
                head += FileHead.read(fd: fd, at: head.count, length: FileHead.length - head.count) ?? []
            }
            guard let thumbnail = read(jpegHead: head[...]) else { return nil }
            colour.convert(thumbnail, from: ICCProfile.inJPEG(head).map(ColourDescription.icc) ?? .sRGB)
            return thumbnail
        default:
            return nil
        }
    }

    /// The upright embedded thumbnail, from the first bytes of a JPEG.
    public static func read(jpegHead head: ArraySlice<UInt8>) -> PixelImage? {
        guard ImageFormat(sniffing: head.prefix(16)) == .jpeg,
              let tiff = TIFFStructure(jpeg: head),
              let ifd1 = tiff.directory(1) else { return nil }
        func value(_ tag: Int) -> Int? { ifd1.first { $0.tag == tag }.flatMap(tiff.integer) }
        // Compression 6 is JPEG; an uncompressed (TIFF strip) thumbnail is rare and not read.
        if let compression = value(0x0103), compression != 6 { return nil }
        guard let offset = value(0x0201), let length = value(0x0202),
              let bytes = tiff.bytes(at: offset, count: length),
              ImageFormat(sniffing: bytes.prefix(16)) == .jpeg,
              let stored = JPEGSegments.frameSize(in: bytes), stored.width <= maxSide, stored.height <= maxSide,
              let decoded = try? JPEGDecoder.decodeStored(Array(bytes), atLeast: nil), decoded.problem == nil else { return nil }
        let thumbnail = decoded.image
        let orientation = ExifOrientation(tiff: tiff) ?? .up
        let photo = JPEGSegments.frameSize(in: head)
        return orientation.apply(to: photo.map { cropBars(thumbnail, toAspectOf: $0) } ?? thumbnail)
    }

    /// The middle of `image` with the photo's aspect ratio (both in stored orientation): a 16:9
    /// photo's 160×120 thumbnail has bars above and below.
    static func cropBars(_ image: PixelImage, toAspectOf photo: (width: Int, height: Int)) -> PixelImage {
        guard photo.width > 0, photo.height > 0 else { return image }
        let aspect = Double(photo.width) / Double(photo.height)
        var w = image.width, h = image.height
        if Double(w) / Double(h) < aspect { h = max(1, Int((Double(w) / aspect).rounded())) }
        else { w = max(1, Int((Double(h) * aspect).rounded())) }
        // Within a pixel or two the thumbnail already has the photo's shape.
        guard image.width - w > 2 || image.height - h > 2 else { return image }
        let out = PixelImage(width: w, height: h, isOpaque: image.isOpaque)
        let x0 = (image.width - w) / 2, y0 = (image.height - h) / 2
        for y in 0..<h {
            (out.bytes + y * out.stride).copyMemory(from: image.bytes + (y0 + y) * image.stride + x0 * 4, byteCount: w * 4)
        }
        return out
    }
}
