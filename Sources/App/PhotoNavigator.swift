import Animation
import Geometry
import Grid
import Imaging
import Library
import Pixels
import SceneGraph
import Transitions
import Viewer
import SystemPackage

/// Opens a photo from the grid with the zoom transition and closes it again, through the seeds'
/// `ZoomTransitionController`, and keeps the open photos' decodes sharp. The window's node tree is built here:
/// `window` ▸ `screens` (grid, viewer) ▸ `transitions` (the flying copy) ▸ the tab bar, on top so
/// that it fades over the viewer.
final class PhotoNavigator {
    let window = Node(name: "window")
    let grid: GridScreen
    private(set) var viewer: PhotoViewerScreen? {
        didSet { updateAnimation() }
    }
    /// The open photo's animation, while it plays (from the zoom-in to the landing of its fly-back).
    var animation: AnimationPlayer?
    /// Photos whose decodes said they move.
    var animated: Set<Int> = []
    private let screens = Node(name: "screens")
    private let flights = Node(name: "transitions")
    /// The viewer's black over the whole window while a photo passed on its own decodes: the launch shows
    /// no grid before the photo (nor draws it, nor keeps a screenful of its copy).
    private var curtain: Node?
    /// The one owner of the photo in the air: the interaction takes, follows and lets it go through its verbs.
    let transitions: ZoomTransitionController
    let animator: Animator
    private(set) var photos: [Photo]
    /// Decodes the open photo and its neighbours at screen size (and the grid's thumbnails).
    let queue: DecodeQueue
    /// The width asked for, per photo, while its decode runs.
    private var pendingWidth: [Int: Int] = [:]
    /// Photos' full widths, px, as their decodes tell them.
    private var fullWidths: [Int: Int] = [:]
    /// What the clips decoded so far say of themselves (the info panel's length, codec and rate), by file.
    var clips: [FilePath: ClipFacts] = [:]
    /// The Motion Photos' movies found so far (in their JPEGs), by file.
    var motionMovies: [FilePath: EmbeddedMovie] = [:]

    /// Device pixels a point: decodes are sized for the pixels; a new one reaches the open photo's pages
    /// and asks for it (and its neighbours) decoded for it.
    var pixelScale: Double {
        didSet {
            guard let viewer else { return }
            viewer.pixelScale = pixelScale
            requestSharpPages(around: viewer.index)
        }
    }

    /// How released pulls move, and how the grid follows the pages.
    private let style: MotionStyle

    /// Reduce motion: flights and the arrow keys' page turns cross-fade.
    var reducesMotion = false {
        didSet {
            transitions.animator.crossFades = reducesMotion
            viewer?.crossFadesPages = reducesMotion
        }
    }

    /// The photo the viewer shows, if it is open.
    var openPhoto: Photo? { viewer.map { photos[$0.index] } }

    /// Whether a clip's sound is played (a window's; headless runs and tests play none).
    var playsSound = false
    /// `l`: a Live Photo plays its movie once, muted, as it lands (and the photo it last did so for, until another
    /// is shown).
    var playsLiveOnLanding = true
    var livePlayedOnLanding: Int?
    /// `m`: clips play silent (kept from one clip to the next, as a phone's mute).
    var isMuted = false {
        didSet {
            animation?.isMuted = isMuted
            updateClipControls()
        }
    }

    /// Whether the viewer's bar offers the trash.
    var showsTrash = false {
        didSet { viewer?.showsTrash = showsTrash }
    }

    /// The user's favorites (nil: none kept, as in most tests).
    let favorites: Favorites?

    /// The open photo becomes a favorite, or stops being one: the bar's heart and its grid cell show it.
    func toggleFavorite() {
        guard let favorites, let viewer, !isTransitioning else { return }
        let photo = photos[viewer.index]
        let favorite = !favorites.contains(photo.file)
        favorites.set(photo.file, favorite: favorite)
        viewer.showFavorite()
        grid.setFavorite(favorite, at: viewer.index)
    }

    init(grid: GridScreen, photos: [Photo], animator: Animator, queue: DecodeQueue, pixelScale: Double, style: MotionStyle,
         favorites: Favorites? = nil) {
        self.favorites = favorites
        self.grid = grid
        self.pixelScale = pixelScale
        self.photos = photos
        self.animator = animator
        self.queue = queue
        self.style = style
        transitions = ZoomTransitionController(stack: NavigationStack(root: grid, container: screens), animator: animator,
                                               layer: flights, chrome: grid.bars.tabBar, viewHeight: grid.size.height, style: style)
        // The current photo is the viewer's: the grid's cell for a flight derives from it.
        grid.transitionIndex = { [weak self] in self?.viewer?.index }
        window.addChild(screens)
        window.addChild(flights)
        window.addChild(grid.bars.tabBar)
        layOut(grid.size)
    }

    /// The grid takes input only when it is on top and nothing is flying.
    var isGridActive: Bool { viewer == nil && !transitions.isTransitioning }
    var isTransitioning: Bool { transitions.isTransitioning }
    var isLoading: Bool { !queue.isIdle(.photo) }

    /// Zooms the photo at `index` out of its cell into the viewer (a photo still loading can't open);
    /// not `animated`, the viewer is simply there.
    func open(_ index: Int, animated: Bool = true) {
        // The decode a press (or a launch on this photo) started may be in already: the photo flies sharp
        // from the start.
        let early = earlyDecode.flatMap { $0.index == index ? $0 : nil }
        guard isGridActive else { return }
        grid.finishColumnChange()
        guard let image = early?.image ?? grid.picture(at: index) else {
            // Its cell shows only its pixels as last seen: the photo flies once its thumbnail is in.
            if animated, grid.showsLastSeen(index) { opensOnceShown = index }
            return
        }
        opensOnceShown = nil
        earlyDecode = nil
        awaitedEarly = nil
        liftCurtain()
        let name = photos[index].name
        let screen = PhotoViewerScreen(index: index, count: photos.count, size: grid.size, pixelScale: pixelScale,
                                       animator: animator,
                                       name: { [unowned self] in self.photos[$0].name },
                                       picture: { [grid] in grid.picture(at: $0) })
        if let early { screen.setImage(early.image, fullSize: early.fullSize, for: index) }
        screen.crossFadesPages = reducesMotion
        screen.showsTrash = showsTrash
        screen.details = { [unowned self] in PhotoInfo.describe(self.photos[$0], clip: self.clips[self.photos[$0].file]) }
        screen.onPageSettled = { [weak self] i in self?.pageSettled(i) }
        screen.onNeedsSharperImage = { [weak self] i, wanted in self?.requestSharper(i, covering: wanted) }
        if let favorites { screen.isFavorite = { [unowned self] in favorites.contains(self.photos[$0].file) } }
        viewer = screen
        requestSharpPages(around: index)
        transitions.push(screen, from: grid, image: image, name: name, animated: animated, covered: { [grid] in
            // Covered now (or about to be pulled back into it): the grid makes the photo's cell
            // fully visible for the way back.
            grid.reveal(index)
        }, left: { [weak self] in self?.viewer = nil })
    }

    /// The photo a long press at `point` lifts to drag it out, and where it is (window points): a grid cell's,
    /// or the open photo's; nil over a bar, a cover, the details, a button, or with a photo in the air.
    func liftable(at point: Point) -> (index: Int, origin: Rect)? {
        guard !isTransitioning else { return nil }
        if isGridActive {
            guard !grid.showsCovers, let index = grid.index(at: point), photos.indices.contains(index) else { return nil }
            let cell = grid.cell(at: index)
            return (index, cell.convert(cell.bounds, to: nil))
        }
        guard let viewer, viewer.button(at: point) == nil, !viewer.isInfoShown, photos.indices.contains(viewer.index) else { return nil }
        return (viewer.index, viewer.photoFrame)
    }

    /// A press on the grid's cell `index`, before any tap is recognized: its fit-size decode starts
    /// now, first in the queue, so that the photo is sharp early in the flight a tap starts.
    func pressed(onCell index: Int) {
        opensOnceShown = nil
        guard isGridActive, let image = grid.picture(at: index) else { return }
        awaitedEarly = index
        let fit = ContentMode.aspectFit.rect(forImageOfSize: Size(width: Double(image.width), height: Double(image.height)),
                                             in: Rect(origin: .zero, size: grid.size)).size
        requestSharper(index, covering: Size(width: fit.width * pixelScale, height: fit.height * pixelScale))
    }

    /// A photo passed on its own, to open at launch: its decode for the window starts first in the
    /// queue, before its thumbnail or its neighbours'. It is decoded at the size it is shown, as its first
    /// bytes state its shape (a 4:3 photo in a 16:9 window needs 56 % of the window's pixels, an upright
    /// one a third); the window's size when they do not say.
    func prepareToOpen(_ index: Int) {
        awaitedEarly = index
        pendingOpen = index
        if curtain == nil {
            let node = Node(name: "launchCurtain")
            node.frame = Rect(origin: .zero, size: grid.size)
            node.backgroundColor = .black
            window.addChild(node)
            curtain = node
        }
        let window = Size(width: grid.size.width * pixelScale, height: grid.size.height * pixelScale)
        requestSharper(index, covering: statedFit(of: index) ?? window)
    }

    /// The photo passed on its own, to open as soon as its thumbnail or its decode is in.
    private(set) var pendingOpen: Int?

    /// Opens the photo waiting to open, once it can be, without the transition; or, `failed` to be read, shows
    /// the grid with its ⚠ cell. Whether the screen changed.
    func openIfLoaded(failed: Bool) -> Bool {
        guard let index = pendingOpen else { return false }
        if canOpen(index) {
            pendingOpen = nil
            open(index, animated: false)
        } else if failed {
            pendingOpen = nil
            liftCurtain()
        } else {
            return false
        }
        return true
    }

    /// The grid shows again: the photo opened, or it cannot be read (its ⚠ cell is then in view).
    func liftCurtain() {
        curtain?.removeFromParent()
        curtain = nil
    }

    /// Photo `i`'s fit in the window, device px, from the shape its file's first bytes state (nil when they do not say).
    private func statedFit(of i: Int) -> Size? {
        Self.shownSize(of: photos[i].file, in: Size(width: grid.size.width * pixelScale, height: grid.size.height * pixelScale))
    }

    /// The size the photo at `file` fills in `window` (aspect fit), from the size and orientation its first bytes state.
    static func shownSize(of file: FilePath, in window: Size) -> Size? {
        guard let facts = PhotoFacts.read(path: file), let stored = facts.pixelSize else { return nil }
        let turned = facts.orientation?.swapsAxes == true
        let upright = Size(width: Double(turned ? stored.height : stored.width), height: Double(turned ? stored.width : stored.height))
        return ContentMode.aspectFit.rect(forImageOfSize: upright, in: Rect(origin: .zero, size: window)).size
    }

    /// Whether photo `index` can open: its thumbnail or its decode is in.
    func canOpen(_ index: Int) -> Bool { grid.picture(at: index) != nil || earlyDecode?.index == index }

    /// A photo opened while its cell showed only its pixels as last seen, to fly once its thumbnail is in
    /// (a press on another cell forgets it).
    private var opensOnceShown: Int?

    /// Thumbnails came: a photo waiting for its own flies now.
    func thumbnailsArrived() {
        guard let index = opensOnceShown, grid.picture(at: index) != nil else { return }
        open(index)
    }

    /// The decode a press on a cell (or a launch) started, when it arrived before the photo opened.
    private var earlyDecode: (index: Int, image: PixelImage, fullSize: Size?)?
    /// The photo whose decode, arriving with no viewer open, is kept as `earlyDecode`: the cell pressed,
    /// while the press may still open it (or the photo a launch opens). Any other decode arriving then
    /// (a neighbour's, after the viewer closed) is let go: it would hold a screenful of pixels for nothing.
    private var awaitedEarly: Int?

    /// The last finger lifted: a press that did not open its photo (a scroll, a long press, a tap that
    /// opened nothing) lets its decode go, now or when it arrives.
    func pressEnded() {
        guard viewer == nil else { return }
        awaitedEarly = nil
        earlyDecode = nil
    }

    /// The pager came to rest on `i`: the grid keeps that cell in view (the seeds centre it), and
    /// sharp decodes are asked for.
    private func pageSettled(_ i: Int) {
        if style == .seeds { grid.centre(i) } else { grid.reveal(i) }
        requestSharpPages(around: i)
        updateAnimation()
    }

    /// Photo `i` moves (its thumbnail's or its photo's decode said so).
    func markAnimated(_ i: Int) {
        guard animated.insert(i).inserted else { return }
        updateAnimation()
    }

    /// A Live Photo whose movie plays: its place and its still, put back when the movie ends or is left.
    var liveStill: (index: Int, image: PixelImage)?

    /// Photos whose file changed while the viewer holds their old pictures: their next decode replaces
    /// what their pages show, whatever its size.
    private var changed: Set<Int> = []

    /// Photo `i`'s file changed: a page that shows it is decoded again (the old picture stays until the
    /// new one comes), an animation it plays starts again from the new file.
    func reload(_ i: Int) {
        pendingWidth[i] = nil
        fullWidths[i] = nil
        if earlyDecode?.index == i { earlyDecode = nil }
        animated.remove(i)
        if animation?.index == i { animation = nil }
        guard let viewer, viewer.hasPage(i) else { return }
        if viewer.image(of: i) != nil { changed.insert(i) }
        // Its new contents may have another shape than the picture its page shows: the file says which.
        requestSharper(i, covering: statedFit(of: i))
    }

    /// The photos changed (files added, removed, renamed), nothing in the air: photo `i` is the one that
    /// was `origins[i]` (nil: new). The open photo stays open in its new place; its file gone, the viewer
    /// shows the photo after it (or before it, at the end). Decodes under way name old places: they are
    /// let go, and the open photo's asked for again.
    /// `preferring`: the photo the viewer shows if it is open (one put back from the trash), else the open
    /// one where it went (gone: the next).
    func listChanged(to photos: [Photo], origins: [Int?], preferring: Int? = nil) {
        var newOf: [Int: Int] = [:]
        for (i, origin) in origins.enumerated() { if let origin { newOf[origin] = i } }
        fullWidths = Dictionary(uniqueKeysWithValues: fullWidths.compactMap { old, width in newOf[old].map { ($0, width) } })
        animated = Set(animated.compactMap { newOf[$0] })
        earlyDecode = nil
        awaitedEarly = nil
        opensOnceShown = nil
        changed = []
        self.photos = photos
        if let player = animation {
            if let now = newOf[player.index] { player.index = now } else { animation = nil }
        }
        liveStill = liveStill.flatMap { live in animation.map { (index: $0.index, image: live.image) } }
        guard let viewer, !photos.isEmpty else { return }
        let open = viewer.index
        let target = preferring ?? newOf[open] ?? origins.firstIndex { ($0 ?? -1) > open } ?? origins.lastIndex { $0 != nil } ?? 0
        viewer.listChanged(count: photos.count, origins: origins, showing: target)
        requestSharpPages(around: target)
        updateAnimation()
    }

    /// The photos are about to change: the decodes asked for, which name old places, are let go (before
    /// any is asked for a new place: a place's number may be another photo's now).
    func forgetDecodes() {
        for i in pendingWidth.keys { queue.forget(index: i) }
        pendingWidth = [:]
    }

    /// Whether the open photo's file is among the ones `origins` keep (`listChanged`).
    func keepsOpenPhoto(_ origins: [Int?]) -> Bool {
        guard let viewer else { return true }
        return origins.contains(viewer.index)
    }

    /// Photo `i` sharp at fit first, then its neighbours, so that a swipe shows them sharp too.
    private func requestSharpPages(around i: Int) {
        for j in [i, i - 1, i + 1] where photos.indices.contains(j) { requestSharper(j) }
    }

    /// Asks for photo `i` decoded to cover `size` device px (its fit frame by default: the window,
    /// when its shape is not known yet), unless its page has such an image or a decode that large
    /// is under way.
    private func requestSharper(_ i: Int, covering size: Size? = nil) {
        let points = viewer?.fitSize(of: i) ?? grid.size
        let wanted = size ?? Size(width: points.width * pixelScale, height: points.height * pixelScale)
        // Up to whole pixels, past a fit's rounding noise (240 px × 500/240 is 500.00000000000006, not 501).
        let w = Int((wanted.width - 1e-6).rounded(.up)), h = Int((wanted.height - 1e-6).rounded(.up))
        // Enough: as wide as asked, or as the photo itself. A playing animation's frames are its own.
        if !changed.contains(i), let shown = viewer?.image(of: i), shown.width + 2 >= min(w, fullWidths[i] ?? .max) { return }
        if animation?.index == i { return }
        let priority: DecodeQueue.Priority = i == (viewer?.index ?? i) ? .openPhoto : .neighbour
        guard pendingWidth[i].map({ $0 < w }) ?? true else { return }
        pendingWidth[i] = w
        queue.request(.photo, index: i, path: photos[i].file, covering: PixelSize(width: w, height: h), priority: priority)
    }

    /// Escape, BackSpace, the back button: the photo goes into its cell, from wherever it is
    /// (`Flight.answer` says how).
    func close() {
        guard transitions.flight != nil else { return transitions.pop() }
        _ = transitions.perform(.close)
    }

    /// Return, or a tap on the photo in the air: on its way into its cell, it turns around and
    /// opens again from where it is.
    func reopen() {
        _ = transitions.perform(.open)
    }

    /// The photo in the air, if one is.
    var flight: Flight? { transitions.flight }

    /// While the finger holds the photo: what letting go now would do.
    func releasePrediction(translation: Point, velocity: Point) -> String? {
        guard transitions.state == .held else { return nil }
        return transitions.wouldFinish(translation: translation, velocity: velocity) ? "finish (into the cell)" : "cancel (spring back)"
    }

    /// The flying photo's scale, if one is in the air.
    var flyingScale: Double? { transitions.flyingScale }

    func resize(to size: Size) {
        grid.resize(to: size)
        viewer?.resize(to: size)
        layOut(size)
        // A photo on its way into its cell: the cell stays in view.
        if let index = viewer?.index, transitions.flight?.destination == .cell {
            grid.reveal(index)
        }
        transitions.layoutChanged(viewHeight: size.height)
    }

    /// Puts finished screen-size decodes into their pages; the photo in the air flies on with the
    /// sharper picture (the same photo, so the same shape: no jump). True when something changed.
    func applyFinishedLoads() -> Bool {
        let results = queue.takeFinished(.photo)
        for result in results {
            if pendingWidth[result.index] == result.covering.width { pendingWidth[result.index] = nil }
            // A vector picture is sharper at any size: its declared size caps no request.
            if let full = result.fullSize, !result.isScalable { fullWidths[result.index] = full.width }
            if result.movingFormat != nil { markAnimated(result.index) }
            if let clip = result.clip, photos.indices.contains(result.index) { clips[photos[result.index].file] = clip }
            if let movie = result.motion { markMotion(result.index, movie) }
            let replaces = changed.remove(result.index) != nil
            // A playing animation's page shows its frames, not the still first one.
            guard case .success(let image) = result.outcome, animation?.index != result.index else { continue }
            let fullSize = result.fullSize.map { Size(width: Double($0.width), height: Double($0.height)) }
            guard let viewer else {
                if result.index == awaitedEarly { earlyDecode = (result.index, image, fullSize) }
                continue
            }
            if replaces {
                viewer.replaceImage(image, fullSize: fullSize, scalable: result.isScalable, for: result.index)
            } else {
                viewer.setImage(image, fullSize: fullSize, scalable: result.isScalable, for: result.index)
            }
            // During the zoom-in the pager stays on the photo that flies.
            if result.index == viewer.index { transitions.sharpenFlyingPhoto(image) }
        }
        return !results.isEmpty
    }

    private func layOut(_ size: Size) {
        let frame = Rect(origin: .zero, size: size)
        window.frame = frame
        screens.frame = frame
        flights.frame = frame
        curtain?.frame = frame
    }
}
