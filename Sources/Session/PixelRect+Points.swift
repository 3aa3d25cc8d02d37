import Geometry
import WindowSystem

extension PixelRect {
    /// The whole device pixels `area` (points, `scale` pixels a point) touches.
    init(enclosing area: Rect, scale: Double) {
        let x0 = (area.minX * scale).rounded(.down), y0 = (area.minY * scale).rounded(.down)
        let x1 = (area.maxX * scale).rounded(.up), y1 = (area.maxY * scale).rounded(.up)
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}
