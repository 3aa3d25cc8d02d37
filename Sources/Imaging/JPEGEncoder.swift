import CTurboJPEG
import Pixels

/// Writes a picture as a baseline JPEG through libjpeg-turbo (4:2:0), as a camera would, optionally
/// with an EXIF block holding an orientation and a thumbnail. The benchmark makes its folder of 12 MP
/// photos with it, and tests make their camera-like files.
public enum JPEGEncoder {
    /// The JPEG bytes of `image` (opaque: its alpha is ignored) at `quality` 1…100; nil when the
    /// library refuses. With `exif`, an APP1 segment follows the start of image.
    public static func encode(_ image: PixelImage, quality: Int = 90, exif: ExifBlock? = nil) -> [UInt8]? {
        guard let plain = encode(image, quality: quality) else { return nil }
        guard let exif, let segment = exif.app1Segment() else { return exif == nil ? plain : nil }
        return Array(plain[..<2]) + segment + Array(plain[2...])
    }

    private static func encode(_ image: PixelImage, quality: Int) -> [UInt8]? {
        guard let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(handle, image.bytes.assumingMemoryBound(to: UInt8.self), Int32(image.width),
                                 Int32(image.stride), Int32(image.height), Int32(TJPF_BGRA.rawValue), &output, &size,
                                 Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        defer { tjFree(output) }
        guard status == 0, let output else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
