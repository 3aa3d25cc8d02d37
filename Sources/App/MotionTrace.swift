import Foundation
import Geometry

/// One line of `--trace FILE`: the state of the motion on one frame, so the curves can be plotted
/// against the seeds' formulas.
public struct MotionTraceRecord: Encodable, Equatable {
    /// Animation-clock time, s.
    public let time: Double
    /// "grid" or "viewer".
    public let screen: String
    /// "none", "zoomIn", "zoomOut", "dismissing" (following the finger) or "dismissalReleased".
    public let transition: String
    /// The photo in the air (or, with none, the viewer's photo) in window points: x, y, width, height.
    public let photoFrame: [Double]?
    public let backgroundAlpha: Double
    public let tabBarAlpha: Double
    /// The active drag's translation (px) and velocity (px/s), if a finger is down.
    public let translation: [Double]?
    public let velocity: [Double]?
    /// The open page's zoom, × fit (1: fit), in the viewer.
    public let zoom: Double?

    /// The record as one line of JSON (keys sorted, no spaces).
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

extension Rect {
    var traceArray: [Double] { [minX, minY, width, height].map { ($0 * 1000).rounded() / 1000 } }
}

extension Point {
    var traceArray: [Double] { [x, y].map { ($0 * 1000).rounded() / 1000 } }
}
