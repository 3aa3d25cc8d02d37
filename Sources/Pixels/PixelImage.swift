/// A decoded picture in Cairo's ARGB32 layout: one native-endian 32-bit word per pixel, alpha in the
/// high byte, colour premultiplied by alpha; rows `stride` bytes apart. The memory is owned here and
/// never changes after the image is made, so an image can be shared across threads and handed to
/// Cairo without a copy.
public final class PixelImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let bytes: UnsafeMutableRawPointer

    /// A zero-filled (transparent) image. Callers fill it through `bytes` before sharing it.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "PixelImage needs a positive size")
        self.width = width
        self.height = height
        stride = width * 4
        bytes = .allocate(byteCount: stride * height, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    deinit { bytes.deallocate() }

    public var pixelCount: Int { width * height }

    /// The pixel at (x, y) as 0xAARRGGBB (premultiplied).
    public func pixel(x: Int, y: Int) -> UInt32 {
        bytes.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    public func setPixel(x: Int, y: Int, _ value: UInt32) {
        bytes.storeBytes(of: value, toByteOffset: y * stride + x * 4, as: UInt32.self)
    }
}
