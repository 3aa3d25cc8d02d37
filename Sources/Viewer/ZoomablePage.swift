import Animation
import Foundation
import Geometry
import Pixels
import Scrolling
import SceneGraph

/// One page of the pager, zoomable like a UIScrollView: the photo is drawn at `zoomScale` × its
/// fit size, and the viewport's origin in it moves along two `ScrollAxis`es, so panning a zoomed
/// photo has the grid's drag, momentum and rubber band. A pinch goes past either limit with a
/// rubber band and springs back when the fingers lift. Points are in the page's coordinates.
final class ZoomablePage {
    /// Zooms that are not a gesture (double tap, keys) settle with this.
    static let zoomMotion = Motion.spring(response: 0.35, dampingRatio: 1)
    /// A pinch past a limit springs back with this.
    static let bounceMotion = Motion.spring(response: 0.45, dampingRatio: 1)
    /// A Ctrl+wheel notch glides there in this long, s.
    static let wheelGlide = ScrollAxis.wheelGlide

    /// The page: it clips the zoomed photo.
    let node: Node
    /// The photo itself: its frame is the zoomed photo's, in page coordinates.
    let photo: Node
    private(set) var viewport = Size(width: 1, height: 1)
    /// The photo's full size, px, once known (until then, the image's own size).
    private var photoPixels: Size?
    /// Drawn from shapes (SVG): a larger decode is always sharper, so its full size caps nothing.
    private var isScalable = false
    private(set) var levels = ZoomLevels(fitSize: Size(width: 1, height: 1), viewport: Size(width: 1, height: 1),
                                         photoPixels: Size(width: 1, height: 1))
    /// Device pixels a point: what "actual size" is, and how sharp a decode the page asks for.
    var pixelScale: Double {
        didSet {
            refreshLevels()
            askForSharperImageIfNeeded()
        }
    }

    /// × fit; outside the limits only while a pinch rubber-bands or springs back.
    var zoomScale = 1.0 {
        didSet { layOut() }
    }
    let x: ScrollAxis
    let y: ScrollAxis
    /// Told when a zoom comes to rest showing the photo larger than its image: the size, device px,
    /// that a sharper decode should cover (never more than the photo's full size).
    var onNeedsSharperImage: ((Size) -> Void)?

    private let animator: Animator
    private var pinch: (startScale: Double, point: Point)?
    /// Where the wheel's zoom glide is heading (notches add up while it moves).
    private var wheelTarget: Double?
    /// Where a running zoom animation is heading, and how it moves: a resize re-aims it.
    private var zoomTarget: (scale: Double, offset: Point, motion: Motion)?

    init(index: Int, name: String, image: PixelImage?, pixelScale: Double, animator: Animator) {
        self.animator = animator
        self.pixelScale = pixelScale
        node = Node(name: "viewer.page.\(index)")
        node.clipsToBounds = true
        photo = Node(name: "viewer.photo.\(index)")
        photo.contentMode = .scaleToFill
        photo.contentsName = name
        photo.image = image
        node.addChild(photo)
        x = ScrollAxis(animator: animator)
        y = ScrollAxis(animator: animator)
        x.onChange = { [unowned self] _ in layOut() }
        y.onChange = { [unowned self] _ in layOut() }
    }

    /// The page shows photo `index` now (photos before it came or went): its nodes are named for it.
    func renumber(_ index: Int) {
        node.name = "viewer.page.\(index)"
        photo.name = "viewer.photo.\(index)"
    }

    var offset: Point { Point(x: x.offset, y: y.offset) }
    var isZoomed: Bool { levels.isZoomed(zoomScale) }
    var isPinching: Bool { pinch != nil }
    var isZoomAnimating: Bool { animator.isAnimating(self, \.zoomScale) }
    /// The photo's frame in the page at fit zoom.
    var fitFrame: Rect {
        Rect(x: (viewport.width - levels.fitSize.width) / 2, y: (viewport.height - levels.fitSize.height) / 2,
             width: levels.fitSize.width, height: levels.fitSize.height)
    }

    /// A sharper decode, or the photo's full size once known. A smaller image never replaces a larger one.
    func setImage(_ image: PixelImage, fullSize: Size?, scalable: Bool = false) {
        if let fullSize { photoPixels = fullSize }
        isScalable = isScalable || scalable
        if let current = photo.image, current.width >= image.width { return refreshLevels() }
        photo.image = image
        refreshLevels()
    }

    /// The page's frame in the pager; the zoom stays, the same photo point stays in the middle.
    func setFrame(_ frame: Rect) {
        let old = levels.fitSize, oldViewport = viewport
        let middle = contentPoint(at: Point(x: viewport.width / 2, y: viewport.height / 2))
        viewport = frame.size
        node.frame = frame
        refreshLevels()
        // The fit size changed with the viewport: the point keeps its place across the photo.
        let fit = levels.fitSize
        func moved(_ p: Point) -> Point { Point(x: p.x / old.width * fit.width, y: p.y / old.height * fit.height) }
        let point = moved(middle)
        place(Point(x: point.x * zoomScale - viewport.width / 2, y: point.y * zoomScale - viewport.height / 2))
        // A zoom on its way keeps heading for the same photo point in the middle, within the new limits.
        if let target = zoomTarget, isZoomAnimating {
            let aim = moved(Point(x: (target.offset.x + oldViewport.width / 2) / target.scale,
                                  y: (target.offset.y + oldViewport.height / 2) / target.scale))
            let end = Point(x: aim.x * target.scale - viewport.width / 2, y: aim.y * target.scale - viewport.height / 2)
            animate(to: target.scale, offset: levels.clampedOffset(end, at: target.scale), motion: target.motion)
        }
    }

    /// Its file changed: the new picture replaces the old whatever their sizes (its shape may differ),
    /// shown at fit; a zoom into it asks for a sharper decode again.
    func replaceImage(_ image: PixelImage, fullSize: Size?, scalable: Bool) {
        photoPixels = fullSize
        isScalable = scalable
        photo.image = image
        resetZoom()
        refreshLevels()
    }

    /// The photo turned a quarter: `image` is its picture turned, and its full size trades sides.
    func turn(to image: PixelImage) {
        replaceImage(image, fullSize: photoPixels.map { Size(width: $0.height, height: $0.width) }, scalable: isScalable)
    }

    /// Back to fit at once (a page left behind).
    func resetZoom() {
        stopAll()
        zoomScale = 1
        place(.zero)
    }

    // MARK: Zoom without a gesture

    /// Zooms to `target` (clamped), taking the photo point under `point` to `destination`.
    func zoom(to target: Double, about point: Point, movingTo destination: Point? = nil,
              motion: Motion = ZoomablePage.zoomMotion) {
        guard !isPinching else { return }
        wheelTarget = nil
        let scale = levels.clamped(target)
        let end = levels.clampedOffset(levels.offset(moving: point, to: destination ?? point, from: offset,
                                                     scale: zoomScale, newScale: scale), at: scale)
        animate(to: scale, offset: end, motion: motion)
    }

    /// A double tap at `point`: to 3× fit centred on it, or back to fit.
    func doubleTap(at point: Point) {
        zoom(to: levels.doubleTapTarget(from: zoomScale), about: point,
             movingTo: Point(x: viewport.width / 2, y: viewport.height / 2))
    }

    /// The wheel: `notches` (positive: toward the user, zooms out) about `point`, gliding; notches
    /// add up while the glide runs.
    func wheelZoom(notches: Double, at point: Point) {
        let from = wheelTarget ?? zoomScale
        let target = levels.clamped(from * pow(ZoomLevels.wheelStep, -notches))
        zoom(to: target, about: point, motion: .curve(.easeOut, duration: ZoomablePage.wheelGlide))
        wheelTarget = target
    }

    // MARK: Pinch

    /// Two fingers went down with their centre at `center`.
    func beginPinch(center: Point) {
        let shown = zoomScale
        stopAll()
        pinch = (levels.unbanded(shown), contentPoint(at: center))
    }

    /// The fingers are `scale` times as far apart as when they went down, with their centre at
    /// `center`: the photo point first under the centre stays under it.
    func pinch(scale: Double, center: Point) {
        guard let pinch else { return }
        zoomScale = levels.banded(pinch.startScale * scale)
        place(Point(x: pinch.point.x * zoomScale - center.x, y: pinch.point.y * zoomScale - center.y), clamp: false)
    }

    /// The fingers lifted: back inside the limits, keeping the photo point under `center` there if it can.
    func endPinch(center: Point) {
        guard pinch != nil else { return }
        pinch = nil
        let scale = levels.clamped(zoomScale)
        let end = levels.clampedOffset(levels.offset(moving: center, to: center, from: offset, scale: zoomScale,
                                                     newScale: scale), at: scale)
        animate(to: scale, offset: end, motion: ZoomablePage.bounceMotion)
    }

    // MARK: Pan (when zoomed)

    func beginPan() {
        stopZoom()
        x.beginDrag()
        y.beginDrag()
    }

    func pan(translation: Point) {
        x.drag(translation: translation.x)
        y.drag(translation: translation.y)
    }

    func endPan(velocity: Point) {
        x.endDrag(velocity: velocity.x)
        y.endDrag(velocity: velocity.y)
    }

    /// Whether the photo is against its left (`dx` > 0) or right edge, so that a drag that way
    /// turns the page instead of panning.
    func isAtEdge(towards dx: Double) -> Bool {
        let range = levels.offsetRange(at: zoomScale).x
        return dx > 0 ? x.offset <= range.lowerBound + 0.5 : x.offset >= range.upperBound - 0.5
    }

    /// After each animator tick: momentum that crosses an edge turns into a bounce.
    func didTick() {
        x.didTick()
        y.didTick()
    }

    // MARK: Layout

    /// The point of the photo at fit scale (its own coordinates ÷ zoom) under `point`.
    private func contentPoint(at point: Point) -> Point {
        Point(x: (point.x + x.offset) / zoomScale, y: (point.y + y.offset) / zoomScale)
    }

    /// Scale and offsets go together with one motion; a zoom already moving keeps its speed.
    private func animate(to scale: Double, offset end: Point, motion: Motion) {
        zoomTarget = (scale, end, motion)
        x.animate(to: end.x, with: motion)
        y.animate(to: end.y, with: motion)
        animator.animate(self, \.zoomScale, to: scale, with: motion) { [weak self] finish in
            guard let self, finish == .finished else { return }
            wheelTarget = nil
            zoomTarget = nil
            layOut()
            askForSharperImageIfNeeded()
        }
    }

    private func askForSharperImageIfNeeded() {
        guard let image = photo.image else { return }
        let shown = levels.contentSize(at: zoomScale)
        let cap = isScalable ? Size(width: Double.infinity, height: .infinity) : levels.photoPixels
        let wanted = Size(width: min(shown.width * pixelScale, cap.width), height: min(shown.height * pixelScale, cap.height))
        // A pixel of slack: the fit size is rarely a whole number.
        if Double(image.width) + 1 < wanted.width { onNeedsSharperImage?(wanted) }
    }

    private func stopZoom() {
        animator.cancel(self, \.zoomScale)
        wheelTarget = nil
        zoomTarget = nil
    }

    private func stopAll() {
        stopZoom()
        x.stop()
        y.stop()
    }

    /// Sets both offsets (into the resting range unless `clamp` is false).
    private func place(_ target: Point, clamp: Bool = true) {
        let p = clamp ? levels.clampedOffset(target, at: zoomScale) : target
        x.offset = p.x
        y.offset = p.y
        layOut()
    }

    private func refreshLevels() {
        guard let image = photo.image else { return }
        // The full size gives the true shape: a reduced decode's sides are rounded to whole pixels.
        let pixels = photoPixels ?? Size(width: Double(image.width), height: Double(image.height))
        let fit = ContentMode.aspectFit.rect(forImageOfSize: pixels, in: Rect(origin: .zero, size: viewport)).size
        levels = ZoomLevels(fitSize: fit, viewport: viewport, photoPixels: pixels, pixelScale: pixelScale)
        layOut()
    }

    private func layOut() {
        let size = levels.contentSize(at: zoomScale)
        photo.frame = Rect(x: -x.offset, y: -y.offset, width: size.width, height: size.height)
        // A pinch moves the photo freely; the ranges hold again once it springs back.
        guard pinch == nil else { return }
        let range = levels.offsetRange(at: zoomScale)
        x.setRange(range.x, viewport: viewport.width)
        y.setRange(range.y, viewport: viewport.height)
    }
}
