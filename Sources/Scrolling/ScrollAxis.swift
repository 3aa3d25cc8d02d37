import Animation

/// One axis of a UIScrollView: a drag moves the content with the finger (and rubber-bands past
/// the ends), a release coasts with the release velocity and decelerates by 0.998 per ms, hitting
/// an end it bounces back on a spring that takes over the velocity, and the wheel glides by steps.
public final class ScrollAxis {
    /// The bounce back to an edge.
    public static let bounce = Motion.spring(response: 0.45, dampingRatio: 1)
    /// A wheel step glides there in this long, s.
    public static let wheelGlide = 0.18
    /// px: a spring this near its end (and slower than 10× this a second) is at rest. The animator's
    /// default (0.001) kept a bounce going for a third of its frames after the content had come within
    /// 0.1 px of the edge: 54 of a flick's 170 frames at 144 Hz, each drawn as any other.
    public static let restThreshold = 0.25

    /// Content offset, px; outside `range` only while rubber-banding.
    public var offset = 0.0 {
        didSet { if offset != oldValue { onChange?(offset) } }
    }
    /// The offsets at rest: 0 … (content length − viewport).
    public private(set) var range: ClosedRange<Double> = 0...0
    /// Viewport length, px: the rubber band's scale.
    public private(set) var viewport = 1.0
    public var onChange: ((Double) -> Void)?

    private let animator: Animator
    private var dragStartRaw = 0.0
    private var isDragging = false
    private var isCoasting = false
    /// Where the wheel's glide is heading (steps add up while it moves).
    private var wheelTarget: Double?

    public init(animator: Animator) { self.animator = animator }

    public var isMoving: Bool { isDragging || animator.isAnimating(self, \.offset) }

    /// New bounds (after a resize or a change of content). A resting offset stays inside them.
    public func setRange(_ range: ClosedRange<Double>, viewport: Double) {
        self.range = range
        self.viewport = max(viewport, 1)
        if !isMoving { offset = clamp(offset) }
    }

    // MARK: Drag

    /// A finger took hold: whatever moved stops where it is.
    public func beginDrag() {
        animator.cancel(self, \.offset)
        isCoasting = false
        wheelTarget = nil
        isDragging = true
        dragStartRaw = rawOffset(for: offset)
    }

    /// `translation`: how far the finger moved along the axis since `beginDrag`, px (content
    /// follows the finger, so the offset moves the other way).
    public func drag(translation: Double) {
        guard isDragging else { return }
        offset = banded(dragStartRaw - translation)
    }

    /// `velocity`: the finger's velocity along the axis at release, px/s.
    public func endDrag(velocity fingerVelocity: Double) {
        guard isDragging else { return }
        isDragging = false
        let velocity = -fingerVelocity
        if offset != clamp(offset) {
            animator.animate(self, \.offset, to: clamp(offset), with: ScrollAxis.bounce, initialVelocity: velocity,
                             restThreshold: ScrollAxis.restThreshold)
        } else if abs(velocity) > Decay().minimumSpeed {
            isCoasting = true
            animator.decay(self, \.offset, velocity: velocity) { [weak self] _ in self?.isCoasting = false }
        }
    }

    /// Call after each animator tick: momentum that crosses an edge turns into a bounce, keeping
    /// its velocity (the spring takes it over).
    public func didTick() {
        guard isCoasting, offset != clamp(offset) else { return }
        isCoasting = false
        animator.animate(self, \.offset, to: clamp(offset), with: ScrollAxis.bounce, restThreshold: ScrollAxis.restThreshold)
    }

    /// A finger touched down on moving content: momentum and glides stop where they are (a bounce
    /// past an end goes on, so the content doesn't stay stretched). True when something stopped.
    @discardableResult
    public func catchMotion() -> Bool {
        guard animator.isAnimating(self, \.offset), offset == clamp(offset) else { return false }
        animator.cancel(self, \.offset)
        isCoasting = false
        wheelTarget = nil
        return true
    }

    /// Whatever moves the content stops where it is (a pinch takes it over).
    public func stop() {
        animator.cancel(self, \.offset)
        isCoasting = false
        wheelTarget = nil
    }

    /// Moves to `target` with `motion`, keeping the speed it has now (a zoom takes the axis along).
    public func animate(to target: Double, with motion: Motion) {
        let velocity = animator.velocity(of: self, \.offset)
        isCoasting = false
        wheelTarget = nil
        animator.animate(self, \.offset, to: target, with: motion, initialVelocity: velocity, restThreshold: ScrollAxis.restThreshold)
    }

    // MARK: Wheel and touchpad

    /// A wheel step of `delta` px: glides there, adding to a glide under way.
    public func scrollSmoothly(by delta: Double) {
        guard !isDragging else { return }
        let target = clamp((wheelTarget ?? offset) + delta)
        wheelTarget = target
        isCoasting = false
        animator.animate(self, \.offset, to: target, with: .curve(.easeOut, duration: ScrollAxis.wheelGlide)) {
            [weak self] end in if end == .finished { self?.wheelTarget = nil }
        }
    }

    /// Touchpad (smooth) scrolling: moves at once, within the range.
    public func scroll(by delta: Double) {
        guard !isDragging else { return }
        animator.cancel(self, \.offset)
        wheelTarget = nil
        isCoasting = false
        offset = clamp(offset + delta)
    }

    /// Jumps (no animation).
    public func setOffset(_ value: Double) {
        animator.cancel(self, \.offset)
        wheelTarget = nil
        isCoasting = false
        offset = clamp(value)
    }

    // MARK: Rubber band

    private func clamp(_ x: Double) -> Double { min(max(x, range.lowerBound), range.upperBound) }

    private func banded(_ raw: Double) -> Double { pastEnds(raw, RubberBand.offset(forOvershoot:dimension:)) }

    /// The un-banded offset that shows `shown` (for grabbing the content mid-bounce).
    private func rawOffset(for shown: Double) -> Double { pastEnds(shown, RubberBand.overshoot(forOffset:dimension:)) }

    /// Maps the distance by which `x` lies past either end through `f(distance, viewport)`.
    private func pastEnds(_ x: Double, _ f: (Double, Double) -> Double) -> Double {
        if x < range.lowerBound { return range.lowerBound - f(range.lowerBound - x, viewport) }
        if x > range.upperBound { return range.upperBound + f(x - range.upperBound, viewport) }
        return x
    }
}
