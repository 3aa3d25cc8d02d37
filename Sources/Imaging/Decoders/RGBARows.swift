import Pixels

/// Turns a decoder's rows of R, G, B, A bytes (straight, or already premultiplied) into Cairo's
/// premultiplied words, row by row as they come. A picture wider or taller than Cairo can hold (a long panorama)
/// comes out reduced by a whole factor, each block of rows averaged as it passes: a decoder that
/// can't reduce by itself still never needs a surface Cairo can't make.
struct RGBARows {
    let image: PixelImage
    /// Source pixels a side per output pixel.
    let factor: Int
    private let width: Int
    /// Sums of the block row being made: R, G and B premultiplied (times 255), and A.
    private var sums: [UInt64]
    private var rowsInBlock = 0
    private var outputRow = 0

    /// `width`×`height` source pixels (the pixel limit already checked).
    init(width: Int, height: Int, isOpaque: Bool) {
        factor = (max(width, height) + ImageLimits.maxSide - 1) / ImageLimits.maxSide
        self.width = width
        image = PixelImage(width: (width + factor - 1) / factor, height: (height + factor - 1) / factor, isOpaque: isOpaque)
        sums = factor > 1 ? [UInt64](repeating: 0, count: image.width * 4) : []
    }

    /// The next source row: `width` pixels of R, G, B, A bytes (or R, G, B only, `channels` 3),
    /// straight unless `premultiplied`.
    mutating func append(_ row: UnsafePointer<UInt8>, channels: Int = 4, premultiplied: Bool = false) {
        guard outputRow < image.height else { return }
        if factor == 1 {
            let out = (image.bytes + outputRow * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row + x * channels
                let a = channels == 4 ? UInt32(p[3]) : 255
                out[x] = premultiplied || a == 255
                    ? a << 24 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                    : a << 24 | Self.times(UInt32(p[0]), a) << 16 | Self.times(UInt32(p[1]), a) << 8 | Self.times(UInt32(p[2]), a)
            }
            outputRow += 1
            return
        }
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<width {
                let p = row + x * channels, s = (x / factor) * 4
                let a = channels == 4 ? UInt64(p[3]) : 255
                // Each channel as 255 × its premultiplied value.
                let weight = premultiplied ? 255 : a
                sums[s] += UInt64(p[0]) * weight
                sums[s + 1] += UInt64(p[1]) * weight
                sums[s + 2] += UInt64(p[2]) * weight
                sums[s + 3] += a
            }
        }
        rowsInBlock += 1
        if rowsInBlock == factor { flush() }
    }

    /// Ends the picture: a last block of fewer rows is written.
    mutating func finish() -> PixelImage {
        if factor > 1, rowsInBlock > 0 { flush() }
        return image
    }

    private mutating func flush() {
        let out = (image.bytes + outputRow * image.stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width {
            let columns = UInt64(min(factor, width - x * factor)), count = columns * UInt64(rowsInBlock)
            let s = x * 4
            // Premultiplied channel = Σ(c·a) / 255 / count; alpha = Σa / count.
            func channel(_ i: Int) -> UInt32 { UInt32(min(255, (sums[s + i] / 255 + count / 2) / count)) }
            let a = UInt32(min(255, (sums[s + 3] + count / 2) / count))
            out[x] = a << 24 | channel(0) << 16 | channel(1) << 8 | channel(2)
        }
        for i in sums.indices { sums[i] = 0 }
        rowsInBlock = 0
        outputRow += 1
    }

    /// c · a / 255, rounded as Cairo rounds.
    @inline(__always)
    static func times(_ c: UInt32, _ a: UInt32) -> UInt32 {
        if a == 255 { return c }
        let t = c * a + 128
        return (t + (t >> 8)) >> 8
    }
}
