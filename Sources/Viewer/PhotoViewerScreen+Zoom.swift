import Foundation
import Geometry

/// Zoom and pan within the current page. Points are in window coordinates.
extension PhotoViewerScreen {
    /// What a one-finger drag on the viewer does, decided when it starts.
    public enum DragRole: Sendable {
        /// Turns pages (horizontal; when zoomed, only from the photo's edge toward the next page).
        case paging
        /// Moves the zoomed photo.
        case panning
        /// Pulls the photo down and out (downward, at fit zoom).
        case dismissing
        /// Lifts the photo over its details (upward at fit; either way while they show).
        case info
        case none
    }

    /// The role of a drag whose first movement is `translation`.
    public func role(forDragStartingWith translation: Point) -> DragRole {
        let horizontal = abs(translation.x) >= abs(translation.y)
        if !horizontal, info.isShown || info.reveal > 0 { return .info }
        guard let page = currentPage, page.isZoomed || page.isZoomAnimating else {
            return horizontal ? .paging : translation.y > 0 ? .dismissing : .info
        }
        return horizontal && page.isAtEdge(towards: translation.x) ? .paging : .panning
    }

    public func beginPan() { currentPage?.beginPan() }
    public func pan(translation: Point) { currentPage?.pan(translation: translation) }
    public func endPan(velocity: Point) { currentPage?.endPan(velocity: velocity) }

    public func beginPinch(center: Point) {
        guard let page = currentPage else { return }
        page.beginPinch(center: page.node.convert(center, from: nil))
    }

    /// `scale`: the fingers' distance over their distance when they went down.
    public func pinch(scale: Double, center: Point) {
        guard let page = currentPage else { return }
        page.pinch(scale: scale, center: page.node.convert(center, from: nil))
    }

    public func endPinch(center: Point) {
        guard let page = currentPage else { return }
        page.endPinch(center: page.node.convert(center, from: nil))
    }

    /// To 3× fit centred on `point`, or back to fit.
    public func doubleTap(at point: Point) {
        guard let page = currentPage else { return }
        page.doubleTap(at: page.node.convert(point, from: nil))
    }

    /// Ctrl+wheel about the pointer: positive notches (toward the user) zoom out.
    public func wheelZoom(notches: Double, at point: Point) {
        guard let page = currentPage else { return }
        page.wheelZoom(notches: notches, at: page.node.convert(point, from: nil))
    }

    /// The `+` and `-` keys: one step in or out about the middle of the window.
    public func zoom(steps: Double) {
        guard let page = currentPage else { return }
        page.zoom(to: page.zoomScale * pow(ZoomLevels.keyStep, steps), about: middle(of: page))
    }

    /// The `0` key.
    public func zoomToFit() {
        guard let page = currentPage else { return }
        page.zoom(to: page.levels.minimum, about: middle(of: page))
    }

    /// Back to fit at once (the photo is in the air, its page hidden).
    public func zoomToFitNow() { currentPage?.resetZoom() }

    /// The `1` key: one photo pixel per screen pixel (fit, for a photo smaller than the window).
    public func zoomToActualSize() {
        guard let page = currentPage else { return }
        page.zoom(to: page.levels.actualSize, about: middle(of: page))
    }

    /// Whether the zoomed photo shows its right edge (`dx` > 0) or its left edge: a step that way
    /// turns the page.
    public func isAtEdge(towards dx: Double) -> Bool { currentPage?.isAtEdge(towards: -dx) ?? true }

    /// A touchpad (or a sideways wheel, or the arrow keys) moves a zoomed photo: `gliding` (a notch,
    /// a key) it glides there, else it follows at once (`dx`, `dy` in scroll units; positive moves
    /// the view right and down).
    public func scroll(dx: Double, dy: Double, gliding: Bool) {
        guard let page = currentPage, page.isZoomed else { return }
        for (axis, units) in [(page.x, dx), (page.y, dy)] where units != 0 {
            let delta = units * PhotoViewerScreen.scrollStep
            if gliding { axis.scrollSmoothly(by: delta) } else { axis.scroll(by: delta) }
        }
    }

    /// One scroll unit (a wheel notch) moves a zoomed photo this far, px.
    static let scrollStep = 60.0

    /// After each animator tick: a coasting pan turns into a bounce at the photo's edge.
    public func didTick() {
        for page in pageNodes.values { page.didTick() }
    }

    var currentPage: ZoomablePage? { pageNodes[index] }

    private func middle(of page: ZoomablePage) -> Point {
        Point(x: page.viewport.width / 2, y: page.viewport.height / 2)
    }
}
