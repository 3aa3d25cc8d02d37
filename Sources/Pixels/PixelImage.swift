import Glibc
import Synchronization

/// Images made so far in this process (`PixelImage.serial`).
private let imagesMade = Atomic<UInt64>(0)

/// A decoded picture in Cairo's ARGB32 layout: one native-endian 32-bit word per pixel, alpha in the
/// high byte, colour premultiplied by alpha; rows `stride` bytes apart. The memory is owned here and
/// never changes after the image is made, so an image can be shared across threads and handed to
/// Cairo without a copy.
// Unchecked: its pixels (a raw pointer) never change once it is shared.
public final class PixelImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let bytes: UnsafeMutableRawPointer
    /// Whether every pixel's alpha is 0xFF, as its maker promises (a JPEG decode): drawn as an
    /// opaque source, Cairo copies it instead of blending it.
    public let isOpaque: Bool
    /// A number no other image made in this process has: names the picture where its address may be
    /// reused by a later one (a cache that outlives the images it was made from).
    public let serial: UInt64
    private let isMapped: Bool
    /// The memory file the pixels were made in, to be handed to another process (`init(inMemoryFileOf:)`); closed
    /// with the image.
    public let memoryFile: Int32?

    /// A zero-filled (transparent) image. Callers fill it through `bytes` before sharing it (and
    /// with only opaque pixels if they say `isOpaque`).
    public init(width: Int, height: Int, isOpaque: Bool = false) {
        precondition(width > 0 && height > 0, "PixelImage needs a positive size")
        self.width = width
        self.height = height
        self.isOpaque = isOpaque
        serial = imagesMade.add(1, ordering: .relaxed).newValue
        stride = width * 4
        (isMapped, memoryFile) = (false, nil)
        bytes = .allocate(byteCount: stride * height, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    /// The pixels another process left in the sealed memory file `fd`, mapped copy-on-write (what is
    /// written here stays here); nil when the file is smaller than the size says or can't be mapped.
    /// `fd` stays the caller's.
    public init?(mapping fd: Int32, width: Int, height: Int, stride: Int, isOpaque: Bool) {
        guard width > 0, height > 0, stride >= width * 4, stride % 4 == 0, height <= Int.max / stride,
              let mapped = SharedPixelMemory.map(fd, byteCount: stride * height) else { return nil }
        (self.width, self.height, self.stride, self.isOpaque) = (width, height, stride, isOpaque)
        serial = imagesMade.add(1, ordering: .relaxed).newValue
        (bytes, isMapped, memoryFile) = (mapped, true, nil)
    }

    /// A zero-filled image in a new memory file, mapped shared: what is drawn here is in the file, which is sent
    /// as it is (`SharedPixelMemory.seal`), not copied. Nil when the kernel refuses.
    public init?(inMemoryFileOf width: Int, height: Int, isOpaque: Bool) {
        guard width > 0, height > 0, height <= Int.max / (width * 4),
              let (fd, mapped) = SharedPixelMemory.mappedFile(byteCount: width * 4 * height) else { return nil }
        (self.width, self.height, self.stride, self.isOpaque) = (width, height, width * 4, isOpaque)
        serial = imagesMade.add(1, ordering: .relaxed).newValue
        (bytes, isMapped, memoryFile) = (mapped, true, fd)
    }

    deinit {
        let count = stride * height
        // A photo's memory (44 MB at 4K) goes back on the window's release thread where it runs:
        // freed on the frame's thread, the open photo and its neighbours cost the 4K frame that
        // landed a photo in its cell 7.5 ms.
        let large = count >= LargeImageRelease.threshold
        if let memoryFile { close(memoryFile) }
        if isMapped {
            if !large || !LargeImageRelease.take(bytes, mappedBytes: count) { munmap(bytes, count) }
        } else if !large || !LargeImageRelease.take(bytes) {
            bytes.deallocate()
        }
    }

    public var pixelCount: Int { width * height }

    /// The pixel at (x, y) as 0xAARRGGBB (premultiplied).
    public func pixel(x: Int, y: Int) -> UInt32 {
        bytes.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    public func setPixel(x: Int, y: Int, _ value: UInt32) {
        bytes.storeBytes(of: value, toByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// Its mean colour as 0xRRGGBB, from a 16x16 grid of its pixels (as shown over black, where it is not
    /// opaque): what stands for the picture in a cell before the picture comes.
    public var meanColour: UInt32 {
        guard width > 0, height > 0 else { return 0 }
        let steps = 16
        var sums: (r: Int, g: Int, b: Int) = (0, 0, 0)
        for j in 0..<steps {
            for i in 0..<steps {
                let p = pixel(x: (2 * i + 1) * width / (2 * steps), y: (2 * j + 1) * height / (2 * steps))
                sums = (sums.r + Int(p >> 16 & 0xFF), sums.g + Int(p >> 8 & 0xFF), sums.b + Int(p & 0xFF))
            }
        }
        let n = steps * steps
        return UInt32((sums.r + n / 2) / n) << 16 | UInt32((sums.g + n / 2) / n) << 8 | UInt32((sums.b + n / 2) / n)
    }
}
