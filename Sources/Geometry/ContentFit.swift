/// How image contents fill a box; UIView.ContentMode's two photo modes.
public enum ContentMode: Sendable, Hashable {
    /// The whole image, scaled to fit inside the box, centred (letterboxed).
    case aspectFit
    /// The box fully covered, the image scaled up and centred; the overflow is cropped by clipping.
    case aspectFill
    /// The image stretched to the box.
    case scaleToFill

    /// The rectangle the image occupies when drawn in `box` with this mode.
    public func rect(forImageOfSize image: Size, in box: Rect) -> Rect {
        guard image.width > 0, image.height > 0 else { return box }
        let sx = box.width / image.width, sy = box.height / image.height
        let scale: Double
        switch self {
        case .aspectFit: scale = min(sx, sy)
        case .aspectFill: scale = max(sx, sy)
        case .scaleToFill: return box
        }
        let w = image.width * scale, h = image.height * scale
        return Rect(x: box.midX - w / 2, y: box.midY - h / 2, width: w, height: h)
    }
}
