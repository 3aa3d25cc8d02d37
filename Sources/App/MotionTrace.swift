import Foundation
import Geometry

/// One line of `--trace FILE`: the state of the motion on one frame, so the curves can be plotted
/// against the seeds' formulas.
public struct MotionTraceRecord: Encodable, Equatable {
    /// Animation-clock time, s.
    public let time: Double
    /// "grid" or "viewer".
    public let screen: String
    /// The photo in the air (`Flight.Stage`): "zoomingIn", "flyingBack", "held", "springingBack",
    /// "flyingHome", or "none".
    public let flight: String
    /// What moves it (`Flight.Mover`): "finger", "spring", "curve" or "crossFade"; nil with none.
    public let flightMover: String?
    /// The interaction's phase: "idle", "scrollingGrid", "paging", "panningPhoto", "pulling",
    /// "pinchPending", "pinchZooming", "pinchClosing", "scrubbingDates" (the date scrubber dragged) … or "inTheAir".
    public let phase: String
    /// The photo in the air (or, with none, the viewer's photo) in window points: x, y, width, height.
    public let photoFrame: [Double]?
    public let backgroundAlpha: Double
    public let tabBarAlpha: Double
    /// The active drag's translation (px) and velocity (px/s), if a finger is down.
    public let translation: [Double]?
    public let velocity: [Double]?
    /// The open page's zoom, × fit (1: fit), in the viewer.
    public let zoom: Double?
    /// The viewer's page (the photo's index), or the one it is sliding to.
    public let page: Int?
    /// Whether something was animating at this tick: the loop then ticks again one frame interval on.
    public let animating: Bool
    /// The grid's scroll offset, points.
    public let gridOffset: Double
    /// The pixel size of the image the photo in the air (or the open page) is drawn from: width, height.
    public let imagePixels: [Int]?
    /// Frames of the open photo's animation put up so far, while one plays.
    public let animationFrame: Int?
    /// A clip with sound: how far its sound was ahead of the picture this frame put up (its time heard at `time`
    /// less the picture's own), ms; nil on frames that put none up. Ahead at the screen: this plus
    /// `presentedAt - time`.
    public var soundLeadMs: Double?
    /// In the window, a frame that drew only what an animation changed: that area, window points
    /// (x, y, width, height); nil for a whole frame.
    public var damage: [Double]?
    /// In the window: what this frame cost to draw and to present, and how long the loop slept
    /// before it, ms (nil headless, where nothing is presented).
    public var drawMs: Double?
    public var presentMs: Double?
    public var idleMs: Double?
    /// When the display paces the frames (X Present): the refresh the frame went up at (MSC), when
    /// (CLOCK_MONOTONIC s; `time` is when it was expected), and the refreshes it missed (how many
    /// later than due it came: 0 for a frame on time).
    public var msc: UInt64?
    public var presentedAt: Double?
    public var missed: UInt64?
    /// The newest pointer or touch event this frame is the first to show: its time on the server,
    /// as CLOCK_MONOTONIC s (nil: none new, or the server's clock is not this machine's).
    public var inputAt: Double?

    /// The record with the window's costs for its frame.
    public func with(_ timing: FrameTiming) -> MotionTraceRecord {
        var record = self
        record.drawMs = timing.draw.roundedToMicroseconds
        record.presentMs = timing.present.roundedToMicroseconds
        record.idleMs = timing.idle.roundedToMicroseconds
        return record
    }

    /// The record of a frame the display showed at refresh `msc`, at `time`, `missed` refreshes late.
    public func shown(msc: UInt64, at time: Double, missed: UInt64) -> MotionTraceRecord {
        var record = self
        record.msc = msc
        record.presentedAt = (time * 1_000_000).rounded() / 1_000_000
        record.missed = missed
        return record
    }

    /// The record as one line of JSON (keys sorted, no spaces).
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// What one frame in the window cost, ms: drawing it, presenting it, and the loop's sleep before it.
public struct FrameTiming: Equatable, Sendable {
    public var draw: Double
    public var present: Double
    public var idle: Double

    public init(draw: Double, present: Double, idle: Double) {
        self.draw = draw
        self.present = present
        self.idle = idle
    }
}

private extension Double {
    var roundedToMicroseconds: Double { (self * 1000).rounded() / 1000 }
}

extension Rect {
    public var traceArray: [Double] { [minX, minY, width, height].map { ($0 * 1000).rounded() / 1000 } }
}

extension Point {
    var traceArray: [Double] { [x, y].map { ($0 * 1000).rounded() / 1000 } }
}

extension MotionTraceRecord {
    /// The state of `app`'s motion now.
    init(of app: PhotoViewerApp) {
        let drag = app.interaction.activeDrag
        let photo = app.root.descendant(named: "transitionImage") ?? app.navigator.viewer?.photoNode
        self.init(
            time: (app.animator.clock.now * 1_000_000).rounded() / 1_000_000,
            screen: app.navigator.viewer == nil ? "grid" : "viewer",
            flight: app.navigator.flight?.stage.rawValue ?? "none",
            flightMover: app.navigator.flight?.mover.rawValue,
            phase: app.interaction.phase.rawValue,
            photoFrame: photo.map { $0.convert($0.bounds, to: nil).traceArray },
            backgroundAlpha: app.navigator.viewer?.root.alpha ?? 0,
            tabBarAlpha: app.grid.bars.tabBar.alpha,
            translation: drag?.translation.traceArray,
            velocity: drag?.velocity.traceArray,
            zoom: app.navigator.viewer.map { ($0.zoomScale * 10000).rounded() / 10000 },
            page: app.navigator.viewer?.index,
            animating: app.isAnimating,
            gridOffset: (app.grid.scrollOffset * 1000).rounded() / 1000,
            imagePixels: photo?.image.map { [$0.width, $0.height] },
            animationFrame: app.animationFramesShown,
            soundLeadMs: app.navigator.animation?.takeSoundLead().map { ($0 * 1_000_000).rounded() / 1000 })
    }
}
