/// A rect of whole device pixels.
struct PixelBox: Equatable {
    let x, y, width, height: Int

    var area: Int { width * height }

    func intersection(_ other: PixelBox) -> PixelBox? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The one with more pixels (a hole is one box: two overlapping would fill their overlap again, even-odd).
    static func larger(_ a: PixelBox?, _ b: PixelBox?) -> PixelBox? {
        guard let a, let b else { return a ?? b }
        return b.area > a.area ? b : a
    }
}
