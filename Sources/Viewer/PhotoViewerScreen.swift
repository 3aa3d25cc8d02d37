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
/// release velocity. Each page zooms and pans on its own (`ZoomablePage`); a page left behind
/// returns to fit. A top bar holds the back button, the photo's name and its favorite heart.
public final class PhotoViewerScreen: PullablePhotoScreen {
    /// Space between pages, px.
    public static let pageGap = 10.0
    /// A release faster than this toward a page turns to it, px/s.
    public static let turnVelocity = 500.0
    /// The page settles with this spring after a swipe (it takes over the finger's speed).
    public static let settle = Motion.spring(response: 0.4, dampingRatio: 1)
    /// A key slides the next page in with this curve: a quarter of a second, as Loupe's arrows do.
    public static let keySlide = Motion.curve(.easeOut, duration: 0.25)
    /// Reduce motion: a key's page turn cross-fades in place with this instead of sliding.
    public static let crossFade = ZoomTiming.crossFade

    /// Reduce motion: Left and Right cross-fade to the next photo (a swipe still follows the finger).
    public var crossFadesPages = false
    /// While a page turn cross-fades: a still of the page it left, over the pages, fading out.
    private var leavingPage: Node?

    public let root = Node(name: "viewer")
    /// The photo on the current page (or the one the pager is settling to).
    public private(set) var index: Int {
        didSet {
            guard index != oldValue else { return }
            endTurn()
            if info.isShown { fillInfo() }
        }
    }
    public private(set) var count: Int
    public private(set) var size: Size
    /// Told each page the pager settles on (the seeds' `PagingCollectionViewControllerDelegate`).
    public var onPageSettled: ((Int) -> Void)?
    /// Told when photo `i` came to rest zoomed past its image's sharpness: the size, px, a sharper
    /// decode should cover.
    public var onNeedsSharperImage: ((Int, Size) -> Void)?

    /// The pages' horizontal scroll position, px; animated while settling.
    public var pagingOffset = 0.0 {
        didSet { pages.bounds.origin.x = pagingOffset }
    }

    let pages = Node(name: "viewer.pages")
    /// The top bar: a back button and the photo's name, the menu, the trash and the heart.
    public let bar: ViewerTopBar
    public var topBar: Node { bar.root }
    /// Whether the bar offers the trash (the viewer may move photos to the trash).
    public var showsTrash: Bool {
        get { bar.showsTrash }
        set { bar.showsTrash = newValue }
    }
    /// Whether photo `i` is a favorite: the bar's heart is filled for it. (`showFavorite` after a change.)
    public var isFavorite: (Int) -> Bool = { _ in false } {
        didSet { showFavorite() }
    }
    /// The photo's details, under it when shown (`PhotoViewerScreen+Info`).
    public let info = InfoPanel()
    /// What the details of photo `i` say: a title (the date) and rows of label and value.
    public var details: ((Int) -> (title: String, rows: [(label: String, value: String)]))?
    /// The photo turning (Ctrl+R), while it turns.
    var turning: Turn?
    /// The current page and its neighbours (the only ones kept).
    private(set) var pageNodes: [Int: ZoomablePage] = [:]
    let animator: Animator
    private let name: (Int) -> String
    private let picture: (Int) -> PixelImage?
    private var dragStart = 0.0
    private var barsBeforePull = true
    /// Device pixels a point; a new one (the window moved to another output) goes to the pages.
    public var pixelScale: Double {
        didSet { for page in pageNodes.values { page.pixelScale = pixelScale } }
    }

    /// `picture(i)`: the best image there is for photo `i` (a thumbnail until a sharper one arrives).
    /// `size` in points, `pixelScale` device pixels a point.
    public init(index: Int, count: Int, size: Size, pixelScale: Double = 1, animator: Animator,
                name: @escaping (Int) -> String, picture: @escaping (Int) -> PixelImage?) {
        self.index = index
        self.count = count
        self.size = size
        self.pixelScale = pixelScale
        self.animator = animator
        self.name = name
        self.picture = picture
        bar = ViewerTopBar(title: name(index))
        root.backgroundColor = .black
        pages.clipsToBounds = true
        root.addChild(pages)
        root.addChild(info.root)
        info.onChange = { [unowned self] in layOutInfo() }
        showFavorite()
        root.addChild(bar.root)
        resize(to: size)
    }

    static let barsFade = Motion.curve(.easeInOut, duration: 0.25)

    public var barsVisible: Bool { topBar.alpha > 0.5 }

    /// A single tap on the photo: the bars fade out, or back in.
    public func toggleBars() {
        animator.animate(topBar, \.alpha, to: barsVisible ? 0 : 1, with: PhotoViewerScreen.barsFade)
    }

    /// A pull on the photo began: it comes back to fit, the bars fade out, as in Photos (and come back if it
    /// springs back), and a page still settling stops where it is, so the photo is pulled from where it shows.
    public func pullBegan() {
        zoomToFitNow()
        barsBeforePull = barsVisible
        if barsVisible { toggleBars() }
        animator.cancel(self, \.pagingOffset)
    }

    /// The photo sprang back into the viewer: the page settles, if a pull stopped it.
    public func pullCancelled() {
        if barsBeforePull, !barsVisible { toggleBars() }
        if pagingOffset != Double(index) * pitch { turn(to: index, velocity: 0) }
    }

    /// The bar's button at `point` (window coordinates), while the bars show: a tap there is the button's, not
    /// the photo's.
    public func button(at point: Point) -> ViewerTopBar.Button? { barsVisible ? bar.button(at: point) : nil }


    /// The heart as the current photo is: filled for a favorite.
    public func showFavorite() { bar.showFavorite(isFavorite(index)) }

    public var pitch: Double { size.width + PhotoViewerScreen.pageGap }
    public var photoName: String { name(index) }
    /// The current photo's node (its frame is the zoomed photo's, in its page).
    public var photoNode: Node? { pageNodes[index]?.photo }
    public var image: PixelImage? { photoNode?.image }
    public var isPaging: Bool { animator.isAnimating(self, \.pagingOffset) }
    /// The current page's zoom, × fit.
    public var zoomScale: Double { pageNodes[index]?.zoomScale ?? 1 }
    public var isZoomed: Bool { pageNodes[index]?.isZoomed ?? false }
    /// Whether a pinch zooms the current page.
    public var isPinching: Bool { pageNodes[index]?.isPinching ?? false }
    /// The current page's zoom limits and levels.
    public var zoomLevels: ZoomLevels? { pageNodes[index]?.levels }

    /// A sharper decode of photo `i` (and its full size), when it arrives; a smaller one is ignored.
    /// `scalable`: drawn from shapes, so sharper at any size it is drawn at.
    public func setImage(_ image: PixelImage, fullSize: Size? = nil, scalable: Bool = false, for i: Int) {
        pageNodes[i]?.setImage(image, fullSize: fullSize, scalable: scalable)
    }

    /// Photo `i`'s file changed: its page shows `image` at fit, whatever it showed before.
    public func replaceImage(_ image: PixelImage, fullSize: Size?, scalable: Bool, for i: Int) {
        pageNodes[i]?.replaceImage(image, fullSize: fullSize, scalable: scalable)
    }

    /// Photo `i`'s animation moved on: its page shows the frame (the frames are all of one size).
    /// The page's node, if it is kept.
    @discardableResult
    public func showFrame(_ image: PixelImage, for i: Int) -> Node? {
        guard let page = pageNodes[i] else { return nil }
        page.photo.image = image
        return page.photo
    }

    public func resize(to newSize: Size) {
        size = newSize
        root.frame = Rect(origin: .zero, size: size)
        pages.frame = Rect(origin: .zero, size: size)
        if info.isShown { fillInfo() }
        layOutInfo()
        animator.cancel(self, \.pagingOffset)
        pagingOffset = Double(index) * pitch
        layOutPages()
        bar.layOut(in: size)
    }

    /// Whether photo `i`'s page is kept (the current page and its neighbours).
    public func hasPage(_ i: Int) -> Bool { pageNodes[i] != nil }

    /// What photo `i`'s page shows, if the page is kept.
    public func image(of i: Int) -> PixelImage? { pageNodes[i]?.photo.image }

    /// Photo `i`'s size at fit, if its page is kept.
    /// (Nil until the page has a picture: its shape is not known before.)
    public func fitSize(of i: Int) -> Size? {
        guard let page = pageNodes[i], page.photo.image != nil else { return nil }
        return page.levels.fitSize
    }

    /// The current photo's aspect-fit frame in the window.
    public var fitFrame: Rect {
        guard let page = pageNodes[index] else { return Rect(origin: .zero, size: size) }
        return page.node.convert(page.fitFrame, to: nil)
    }

    /// Where the current photo is in the window now (zoomed, it reaches past the page).
    public var photoFrame: Rect {
        guard let photo = photoNode else { return fitFrame }
        return photo.convert(photo.bounds, to: nil)
    }

    // MARK: Paging

    public func beginPaging() {
        endCrossFade()
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

    /// Left / Right keys: the next page slides in (`keySlide`); a key pressed again while it slides
    /// goes on to the page after it.
    public func page(by step: Int) {
        let target = min(max(index + step, 0), count - 1)
        guard crossFadesPages, target != index else {
            return turn(to: target, velocity: 0, with: PhotoViewerScreen.keySlide)
        }
        crossFade(to: target)
    }

    /// The photos changed under the viewer (files added, removed, renamed): photo `i` is the one that was
    /// `origins[i]` (nil: new), and the viewer shows `target`. The pages kept keep their pictures and zoom;
    /// when `target` is another photo the pager cross-fades to it (the open one's file gone, its photo
    /// shrinks away meanwhile).
    public func listChanged(count: Int, origins: [Int?], showing target: Int) {
        var newOf: [Int: Int] = [:]
        for (i, origin) in origins.enumerated() { if let origin { newOf[origin] = i } }
        let stays = newOf[index] == target
        if !stays {
            endCrossFade()
            fadeOutCurrentPage(shrinking: newOf[index] == nil)
        }
        animator.cancel(self, \.pagingOffset)
        var kept: [Int: ZoomablePage] = [:]
        for (old, page) in pageNodes {
            guard let i = newOf[old] else {
                page.node.removeFromParent()
                continue
            }
            page.renumber(i)
            page.onNeedsSharperImage = { [weak self] wanted in self?.onNeedsSharperImage?(i, wanted) }
            kept[i] = page
        }
        pageNodes = kept
        self.count = count
        if stays {
            index = target
            layOutPages()
            pagingOffset = Double(target) * pitch
            bar.setTitle(photoName)   // renamed, it says its new name
        } else {
            fadeIn(target)
        }
    }

    /// The pager jumps to `target` while the page it leaves fades out over it and the new one fades in.
    private func crossFade(to target: Int) {
        endCrossFade()
        animator.cancel(self, \.pagingOffset)
        fadeOutCurrentPage()
        fadeIn(target)
    }

    /// A still of the current page, over the pages, fades out (`shrinking` to half its size about its centre).
    private func fadeOutCurrentPage(shrinking: Bool = false) {
        guard let photo = photoNode, photo.image != nil else { return }
        leavingPage = LeavingPage.fadeOut(photo, over: pages, in: root, shrinking: shrinking, animator: animator)
    }

    /// The pager jumps to `target`, its page fading in.
    private func fadeIn(_ target: Int) {
        index = target
        bar.setTitle(photoName)
        showFavorite()
        layOutPages()
        pagingOffset = Double(target) * pitch
        guard let entering = pageNodes[target]?.node else { return }
        entering.alpha = 0
        animator.animate(entering, \.alpha, to: 1, with: PhotoViewerScreen.crossFade) { [weak self] end in
            guard let self, end == .finished else { return }
            endCrossFade()
            for (i, page) in pageNodes where i != index { page.resetZoom() }
            onPageSettled?(index)
        }
    }

    /// A cross-fade under way ends where it is going: the still goes, every page is whole.
    private func endCrossFade() {
        leavingPage.map { animator.cancelAll(of: $0) }
        leavingPage?.removeFromParent()
        leavingPage = nil
        for page in pageNodes.values where page.node.alpha != 1 {
            animator.cancel(page.node, \.alpha)
            page.node.alpha = 1
        }
    }

    private func turn(to target: Int, velocity: Double, with motion: Motion = PhotoViewerScreen.settle) {
        index = target
        bar.setTitle(photoName)
        showFavorite()
        layOutPages()
        animator.animate(self, \.pagingOffset, to: Double(target) * pitch, with: motion,
                         initialVelocity: velocity) { [weak self] end in
            guard let self, end == .finished else { return }
            // The pages left behind are back at fit when they come into view again.
            for (i, page) in pageNodes where i != index { page.resetZoom() }
            onPageSettled?(index)
        }
    }

    /// Keeps nodes for the current page and its neighbours only.
    private func layOutPages() {
        let wanted = Set(max(0, index - 1)...min(count - 1, index + 1))
        for (i, page) in pageNodes where !wanted.contains(i) {
            page.node.removeFromParent()
            pageNodes[i] = nil
        }
        for i in wanted.sorted() {
            let page = pageNodes[i] ?? {
                let page = ZoomablePage(index: i, name: name(i), image: picture(i), pixelScale: pixelScale, animator: animator)
                page.onNeedsSharperImage = { [weak self] wanted in self?.onNeedsSharperImage?(i, wanted) }
                pages.addChild(page.node)
                pageNodes[i] = page
                return page
            }()
            page.setFrame(Rect(x: Double(i) * pitch, y: 0, width: size.width, height: size.height))
        }
    }

    // MARK: ZoomAnimatorDelegate

    public func transitionWillStartWith(zoomAnimator: ZoomAnimator) {}
    public func transitionDidEndWith(zoomAnimator: ZoomAnimator) {}
    public func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node? { photoNode }
    public func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect? { photoFrame }
}

extension PhotoViewerScreen {
    /// The pages rise with the details (`InfoPanel.lift`), and the panel with them.
    func layOutInfo() {
        pages.frame = Rect(x: 0, y: -info.lift, width: size.width, height: size.height)
        info.layOut(in: size)
    }
}

/// A page a cross-fade leaves: a still of its photo over the pages, fading out.
enum LeavingPage {
    /// The still of `photo` put over `pages` in `root`, fading out (`shrinking` to half its size about its centre).
    static func fadeOut(_ photo: Node, over pages: Node, in root: Node, shrinking: Bool, animator: Animator) -> Node {
        let frame = photo.convert(photo.bounds, to: root)
        let still = Node(name: "viewer.leavingPage", frame: frame)
        still.image = photo.image
        still.contentMode = photo.contentMode
        root.insertChild(still, above: pages)
        animator.animate(still, \.alpha, to: 0, with: PhotoViewerScreen.crossFade)
        if shrinking {
            let half = Rect(x: frame.midX - frame.width / 4, y: frame.midY - frame.height / 4, width: frame.width / 2, height: frame.height / 2)
            animator.animate(still, \.frame, to: half, with: PhotoViewerScreen.crossFade)
        }
        return still
    }
}
