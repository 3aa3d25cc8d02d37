import Geometry
import Grid
import Input

/// When the grid's date scrubber shows, and the finger that drags it: it appears while the grid scrolls fast, or
/// when the pointer comes near the right edge, and fades a moment after both stop; a press (or a touch) on its
/// handle then drags through the timeline, and is its own until it lifts. Nothing else of the grid's input is taken.
final class DateScrubberController {
    private unowned let navigator: PhotoNavigator
    private var grid: GridScreen { navigator.grid }
    /// The press or touch dragging the handle: the mouse's (nil) or a touch's id.
    private var dragging: Int??
    /// When it last had a reason to show (a fast scroll, a hover, a drag), on the app's clock.
    private var lastWanted = -Double.infinity
    private var lastTick: (time: Double, offset: Double, arrangement: Int)?
    /// Whether the pointer is near the right edge now.
    private var hovering = false

    /// It stays this long after the last reason to show, s.
    static let linger = 1.2
    /// Faster than this, px/s, the grid scrolls "fast".
    static let fastScroll = 2500.0
    /// The pointer this near the right edge, points, brings it.
    static let hoverWidth = 48.0

    init(navigator: PhotoNavigator) { self.navigator = navigator }

    private func isGridActive() -> Bool { navigator.isGridActive && grid.bars.shownTab == .library }

    /// Whether a finger drags the handle.
    var isDragging: Bool { dragging != nil }

    /// Whether it shows and waits to fade (the frames must go on to fade it).
    var isLingering: Bool { navigator.grid.scrubber.isShown && dragging == nil && !hovering }

    func handle(_ event: InputEvent, at now: Double) -> Handled {
        switch event {
        case .pointerDown(let at, 1, _): return began(at, id: nil, now)
        case .touch(.begin, let id, let at, _): return began(at, id: id, now)
        case .pointerMove(let to, _):
            hovering = isGridActive() && to.x >= grid.size.width - Self.hoverWidth
            if hovering { lastWanted = now }
            return moved(to, id: nil, now)
        case .touch(.update, let id, let at, _): return moved(at, id: id, now)
        case .pointerUp(_, 1, _): return ended(id: nil, now)
        case .touch(.end, let id, _, _), .touch(.cancel, let id, _, _): return ended(id: id, now)
        default: return .passed
        }
    }

    private func began(_ point: Point, id: Int?, _ now: Double) -> Handled {
        guard dragging == nil, isGridActive(), grid.scrubber.grabs(point) else { return .passed }
        dragging = .some(id)
        lastWanted = now
        grid.scrubber.scrub(toY: point.y)
        return .taken(nil)
    }

    private func moved(_ point: Point, id: Int?, _ now: Double) -> Handled {
        guard dragging == .some(id) else { return .passed }
        lastWanted = now
        grid.scrubber.scrub(toY: point.y)
        return .taken(nil)
    }

    private func ended(id: Int?, _ now: Double) -> Handled {
        guard dragging == .some(id) else { return .passed }
        dragging = nil
        lastWanted = now
        grid.scrubber.endScrub()
        return .taken(nil)
    }

    /// Each frame: shows it while it is wanted (a fast scroll counts from how far the grid moved since the last
    /// frame, other cells altogether not: a view zoomed into), and fades it `linger` after.
    func tick(at now: Double) {
        let offset = grid.scrollOffset
        if let last = lastTick, now > last.time, last.arrangement == grid.arrangement, dragging == nil,
           abs(offset - last.offset) / (now - last.time) > Self.fastScroll {
            lastWanted = now
        }
        lastTick = (now, offset, grid.arrangement)
        if hovering || dragging != nil { lastWanted = now }
        grid.scrubber.show(isGridActive() && now - lastWanted < Self.linger)
    }
}
