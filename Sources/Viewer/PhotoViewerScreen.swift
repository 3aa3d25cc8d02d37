import Animation
import Geometry
import Pixels
import Scrolling
import SceneGraph
import Transitions

/// The full-screen viewer: a horizontal pager of photos on black, one photo per page, aspect-fit,
/// with a gap between pages. A horizontal drag follows the finger; on release the pager turns to
/// the next or previous page when the finger moves toward it faster than `turnVelocity` or has
/// dragged it more than half way, and otherwise goes back; the settling spring takes over the
/// release velocity. A top bar holds the back button and the photo's name. (Zoom within a page
/// comes next.)
public final class PhotoViewerScreen: Screen, ZoomAnimatorDelegate {
    /// Space between pages, px.
    public static let pageGap = 10.0
    /// A release faster than this toward a page turns to it, px/s.
    public static let turnVelocity = 500.0
    /// The page settles with this spring.
    public static let settle = Motion.spring(response: 0.4, dampingRatio: 1)

    public let root = Node(name: "viewer")
    /// The photo on the current page (or the one the pager is settling to).
    public private(set) var index: Int
    public let count: Int
    public private(set) var size: Size
    /// Told each page the pager settles on (the seeds' `PagingCollectionViewControllerDelegate`).
    public var onPageSettled: ((Int) -> Void)?

    /// The pages' horizontal scroll position, px; animated while settling.
    public var pagingOffset = 0.0 {
        didSet { pages.bounds.origin.x = pagingOffset }
    }

    private let pages = Node(name: "viewer.pages")
    /// The top bar: a back button and the photo's name; a tap on the photo shows or hides it.
    public let topBar = Node(name: "viewer.topBar")
    private let backButton = Node(name: "viewer.back")
    private let titleLabel = Node(name: "viewer.title")
    private var pageNodes: [Int: Node] = [:]
    private let animator: Animator
    private let name: (Int) -> String
    private let picture: (Int) -> PixelImage?
    private var dragStart = 0.0

    /// `picture(i)`: the best image there is for photo `i` (a thumbnail until a sharper one arrives).
    public init(index: Int, count: Int, size: Size, animator: Animator, name: @escaping (Int) -> String,
                picture: @escaping (Int) -> PixelImage?) {
        self.index = index
        self.count = count
        self.size = size
        self.animator = animator
        self.name = name
        self.picture = picture
        root.backgroundColor = .black
        pages.clipsToBounds = true
        root.addChild(pages)
        buildTopBar()
        resize(to: size)
    }

    /// Bar geometry and look, px (the grid's bar style, on the viewer).
    static let barHeight = 56.0
    static let barColor = Color(hex: 0xF9F9F9, alpha: 0.94)
    static let tint = Color(hex: 0x007AFF)
    static let barsFade = Motion.curve(.easeInOut, duration: 0.25)

    public var barsVisible: Bool { topBar.alpha > 0.5 }

    /// A single tap on the photo: the bars fade out, or back in.
    public func toggleBars() {
        animator.animate(topBar, \.alpha, to: barsVisible ? 0 : 1, with: PhotoViewerScreen.barsFade)
    }

    /// Whether `point` (window coordinates) is on the back button while the bars show.
    public func isBackButton(at point: Point) -> Bool {
        barsVisible && backButton.convert(backButton.bounds, to: nil).contains(point)
    }

    private func buildTopBar() {
        topBar.backgroundColor = PhotoViewerScreen.barColor
        backButton.text = TextContents("‹ Photos", fontSize: 17, color: PhotoViewerScreen.tint, alignment: .leading)
        titleLabel.text = TextContents(photoName, fontSize: 15, weight: .bold, color: .black)
        topBar.addChild(backButton)
        topBar.addChild(titleLabel)
        root.addChild(topBar)
    }

    public var pitch: Double { size.width + PhotoViewerScreen.pageGap }
    public var photoName: String { name(index) }
    /// The current page's node (it shows the photo aspect-fit in its bounds).
    public var photoNode: Node? { pageNodes[index] }
    public var image: PixelImage? { photoNode?.image }
    public var isPaging: Bool { animator.isAnimating(self, \.pagingOffset) }

    /// A sharper decode of photo `i`, when it arrives.
    public func setImage(_ image: PixelImage, for i: Int) { pageNodes[i]?.image = image }

    public func resize(to newSize: Size) {
        size = newSize
        root.frame = Rect(origin: .zero, size: size)
        pages.frame = Rect(origin: .zero, size: size)
        animator.cancel(self, \.pagingOffset)
        pagingOffset = Double(index) * pitch
        layOutPages()
        topBar.frame = Rect(x: 0, y: 0, width: size.width, height: PhotoViewerScreen.barHeight)
        backButton.frame = Rect(x: 12, y: 0, width: 110, height: PhotoViewerScreen.barHeight)
        titleLabel.frame = Rect(x: 120, y: 0, width: max(0, size.width - 240), height: PhotoViewerScreen.barHeight)
    }

    /// The current photo's aspect-fit frame in the window.
    public var fitFrame: Rect {
        guard let node = photoNode else { return Rect(origin: .zero, size: size) }
        let pageRect = node.convert(node.bounds, to: nil)
        guard let image = node.image else { return pageRect }
        return ContentMode.aspectFit.rect(forImageOfSize: Size(width: Double(image.width), height: Double(image.height)),
                                          in: pageRect)
    }

    // MARK: Paging

    public func beginPaging() {
        animator.cancel(self, \.pagingOffset)
        dragStart = pagingOffset
    }

    /// `translation`: the finger's horizontal movement since `beginPaging`, px. Past the first and
    /// last page the pages rubber-band.
    public func dragPaging(translation: Double) {
        let raw = dragStart - translation, last = Double(count - 1) * pitch
        if raw < 0 {
            pagingOffset = -RubberBand.offset(forOvershoot: -raw, dimension: size.width)
        } else if raw > last {
            pagingOffset = last + RubberBand.offset(forOvershoot: raw - last, dimension: size.width)
        } else {
            pagingOffset = raw
        }
    }

    /// `velocity`: the finger's horizontal velocity at release, px/s.
    public func endPaging(velocity: Double) {
        let moved = pagingOffset - Double(index) * pitch
        var target = index
        if velocity < -PhotoViewerScreen.turnVelocity || moved > pitch / 2 { target += 1 }
        if velocity > PhotoViewerScreen.turnVelocity || moved < -pitch / 2 { target -= 1 }
        turn(to: min(max(target, 0), count - 1), velocity: -velocity)
    }

    /// Left / Right keys: the same settling spring, from rest.
    public func page(by step: Int) {
        guard !isPaging else { return }
        turn(to: min(max(index + step, 0), count - 1), velocity: 0)
    }

    private func turn(to target: Int, velocity: Double) {
        index = target
        titleLabel.text?.string = photoName
        layOutPages()
        animator.animate(self, \.pagingOffset, to: Double(target) * pitch, with: PhotoViewerScreen.settle,
                         initialVelocity: velocity) { [weak self] end in
            guard let self, end == .finished else { return }
            onPageSettled?(index)
        }
    }

    /// Keeps nodes for the current page and its neighbours only.
    private func layOutPages() {
        let wanted = Set(max(0, index - 1)...min(count - 1, index + 1))
        for (i, node) in pageNodes where !wanted.contains(i) {
            node.removeFromParent()
            pageNodes[i] = nil
        }
        for i in wanted.sorted() {
            let node = pageNodes[i] ?? {
                let node = Node(name: "viewer.page.\(i)")
                node.contentMode = .aspectFit
                node.image = picture(i)
                node.contentsName = name(i)
                pages.addChild(node)
                pageNodes[i] = node
                return node
            }()
            node.frame = Rect(x: Double(i) * pitch, y: 0, width: size.width, height: size.height)
        }
    }

    // MARK: ZoomAnimatorDelegate

    public func transitionWillStartWith(zoomAnimator: ZoomAnimator) {}
    public func transitionDidEndWith(zoomAnimator: ZoomAnimator) {}
    public func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node? { photoNode }
    public func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect? { fitFrame }
}
