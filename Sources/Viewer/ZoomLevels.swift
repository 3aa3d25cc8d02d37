import Foundation
import Geometry
import Scrolling

/// Where a page's zoom may go, with no UI in it. A zoom scale is relative to the photo's
/// aspect-fit size: 1 is fit, 2 shows the photo twice as large. Offsets are the viewport's origin
/// in the zoomed photo's coordinates (UIScrollView's `contentOffset`); along an axis where the
/// photo is smaller than the viewport it is centred.
public struct ZoomLevels: Equatable, Sendable {
    /// A page zooms up to this many times its fit size (further only if 100 % is larger).
    public static let maximumFitMultiple = 4.0
    /// A double tap on a photo at fit zooms to this, × fit.
    public static let doubleTapScale = 3.0
    /// `+` and `-` multiply or divide the zoom by this.
    public static let keyStep = 1.5
    /// One wheel notch with Ctrl multiplies or divides the zoom by this.
    public static let wheelStep = 1.25
    /// Past a limit, a pinch meets a rubber band this long in log-scale (a doubling).
    static let bandLength = log(2.0)

    /// The photo's size at fit, px.
    public let fitSize: Size
    public let viewport: Size
    /// The photo's full size in pixels (100 %).
    public let photoPixels: Size
    /// Device pixels a point (sizes and offsets here are in points).
    public let pixelScale: Double

    public init(fitSize: Size, viewport: Size, photoPixels: Size, pixelScale: Double = 1) {
        self.fitSize = fitSize
        self.viewport = viewport
        self.photoPixels = photoPixels
        self.pixelScale = pixelScale
    }

    /// The photo fits the viewport aspect-fit: the smallest scale.
    public var minimum: Double { 1 }
    /// One photo pixel per device pixel.
    public var actualSize: Double { fitSize.width > 0 ? photoPixels.width / (fitSize.width * pixelScale) : 1 }
    public var maximum: Double { max(ZoomLevels.maximumFitMultiple, actualSize) }

    public func clamped(_ scale: Double) -> Double { min(max(scale, minimum), maximum) }

    /// What a pinch shows when the fingers ask for `raw`: past either limit it resists more and
    /// more (UIScrollView's rubber band, applied to the logarithm of the scale).
    public func banded(_ raw: Double) -> Double { pastLimits(raw, RubberBand.offset(forOvershoot:dimension:)) }

    /// The raw scale that `banded` shows as `shown` (a pinch that starts on a bouncing photo).
    public func unbanded(_ shown: Double) -> Double { pastLimits(shown, RubberBand.overshoot(forOffset:dimension:)) }

    /// Maps how far `scale` lies past either limit, in log-scale, through `f(distance, bandLength)`.
    private func pastLimits(_ scale: Double, _ f: (Double, Double) -> Double) -> Double {
        let scale = max(scale, 1e-6)
        if scale > maximum { return maximum * exp(f(log(scale / maximum), ZoomLevels.bandLength)) }
        if scale < minimum { return minimum / exp(f(log(minimum / scale), ZoomLevels.bandLength)) }
        return scale
    }

    /// A double tap: to `doubleTapScale` from fit, and back to fit from any zoom.
    public func doubleTapTarget(from scale: Double) -> Double {
        isZoomed(scale) ? minimum : min(ZoomLevels.doubleTapScale, maximum)
    }

    public func isZoomed(_ scale: Double) -> Bool { scale > minimum + 1e-3 }

    /// The photo's size at `scale`.
    public func contentSize(at scale: Double) -> Size { Size(width: fitSize.width * scale, height: fitSize.height * scale) }

    /// The offsets at rest for `scale`, per axis (a single, negative value where the photo is centred).
    public func offsetRange(at scale: Double) -> (x: ClosedRange<Double>, y: ClosedRange<Double>) {
        let content = contentSize(at: scale)
        func range(_ c: Double, _ v: Double) -> ClosedRange<Double> { c > v ? 0...(c - v) : ((c - v) / 2)...((c - v) / 2) }
        return (range(content.width, viewport.width), range(content.height, viewport.height))
    }

    /// The offset that puts the photo point now under `point` (viewport coordinates) at `target`
    /// once the scale goes from `scale` to `newScale`, not clamped.
    public func offset(moving point: Point, to target: Point, from offset: Point, scale: Double, newScale: Double) -> Point {
        let ratio = newScale / scale
        return Point(x: (point.x + offset.x) * ratio - target.x, y: (point.y + offset.y) * ratio - target.y)
    }

    /// `offset` moved into the resting range for `scale`.
    public func clampedOffset(_ offset: Point, at scale: Double) -> Point {
        let range = offsetRange(at: scale)
        return Point(x: min(max(offset.x, range.x.lowerBound), range.x.upperBound),
                     y: min(max(offset.y, range.y.lowerBound), range.y.upperBound))
    }
}
