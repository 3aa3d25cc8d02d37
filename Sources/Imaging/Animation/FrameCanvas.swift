import Pixels

/// The canvas GIF and APNG frames are composed on, in Cairo's premultiplied words: each frame is
/// drawn over (or in place of) what its rectangle holds, and afterwards its rectangle is left as it
/// is, cleared, or put back as it was before the frame, as the frame says.
final class FrameCanvas {
    /// What becomes of a frame's rectangle before the next frame is drawn.
    enum Disposal { case keep, clear, restore }
    /// How a frame's pixels meet the canvas: over it (transparent pixels leave it showing), or in
    /// place of it.
    enum Blend { case over, replace }

    struct Area {
        let x, y, width, height: Int
    }

    let width: Int
    let height: Int
    private var words: [UInt32]
    /// The last frame's rectangle and what to do with it.
    private var pending: (area: Area, disposal: Disposal)?
    /// What the last frame's rectangle held before it was drawn (for `.restore`).
    private var saved: [UInt32] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        words = [UInt32](repeating: 0, count: width * height)
    }

    /// Back to the empty canvas (a rewound animation).
    func reset() {
        for i in words.indices { words[i] = 0 }
        pending = nil
    }

    /// Draws a frame of `area`'s size (its pixels premultiplied, row by row) at `area`, after the
    /// previous frame's disposal; `disposal` is kept for the next one. Parts outside the canvas are
    /// left out.
    func draw(_ pixels: UnsafePointer<UInt32>, at area: Area, blend: Blend, then disposal: Disposal) {
        if let (last, what) = pending {
            switch what {
            case .keep: break
            case .clear: fill(last, with: 0)
            case .restore: put(saved, in: last)
            }
        }
        let clipped = clip(area)
        if disposal == .restore { saved = copy(clipped) }
        pending = (clipped, disposal)
        guard clipped.width > 0, clipped.height > 0 else { return }
        let dx = clipped.x - area.x, dy = clipped.y - area.y
        words.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<clipped.height {
                let source = pixels + (dy + row) * area.width + dx
                let target = canvas.baseAddress! + (clipped.y + row) * width + clipped.x
                for x in 0..<clipped.width {
                    let p = source[x]
                    switch blend {
                    case .replace: target[x] = p
                    case .over: target[x] = FrameCanvas.over(p, target[x])
                    }
                }
            }
        }
    }

    /// The canvas as it shows now.
    func snapshot() -> PixelImage {
        let image = PixelImage(width: width, height: height)
        words.withUnsafeBytes { image.bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return image
    }

    /// Premultiplied `source` over `destination`.
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let a = source >> 24
        if a == 255 || destination == 0 { return source }
        if a == 0 { return destination }
        let keep = 255 - a
        func channel(_ shift: UInt32) -> UInt32 {
            let d = (destination >> shift & 0xFF) * keep + 128
            return min(255, (source >> shift & 0xFF) + ((d + (d >> 8)) >> 8)) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    /// The part of `a` on the canvas; an empty area at the origin when none is (found by the fuzzer:
    /// a frame beside the canvas kept its height, and its rows were looked for past the canvas).
    private func clip(_ a: Area) -> Area {
        let x0 = max(0, a.x), y0 = max(0, a.y)
        let x1 = min(width, a.x + a.width), y1 = min(height, a.y + a.height)
        guard x1 > x0, y1 > y0 else { return Area(x: 0, y: 0, width: 0, height: 0) }
        return Area(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func fill(_ a: Area, with value: UInt32) {
        for row in 0..<a.height {
            let start = (a.y + row) * width + a.x
            for i in start..<(start + a.width) { words[i] = value }
        }
    }

    private func copy(_ a: Area) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(a.width * a.height)
        for row in 0..<a.height {
            let start = (a.y + row) * width + a.x
            out += words[start..<(start + a.width)]
        }
        return out
    }

    private func put(_ stored: [UInt32], in a: Area) {
        guard stored.count == a.width * a.height else { return }
        for row in 0..<a.height {
            let start = (a.y + row) * width + a.x
            words.replaceSubrange(start..<(start + a.width), with: stored[(row * a.width)..<((row + 1) * a.width)])
        }
    }
}
