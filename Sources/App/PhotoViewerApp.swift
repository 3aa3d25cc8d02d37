import Animation
import Foundation
import Geometry
import Gestures
import Grid
import Input
import Library
import Logging
import Pixels
import SceneGraph
import Transitions
import Viewer
import SystemPackage

/// The viewer, free of any windowing system: it owns the scene, takes platform-free input and
/// says when it needs drawing. The window loop, a headless run and the tests all drive it the same.
public final class PhotoViewerApp {
    /// What the app asks of whoever runs it.
    public typealias Request = AppRequest

    /// Shift+S slows every animation by this factor.
    static let slowMotion = 10.0

    /// The photos shown: the library, or what the search finds.
    public internal(set) var photos: [Photo]
    public let grid: GridScreen
    public let animator: Animator
    public var root: Node { navigator.window }
    /// The open photo, if any.
    public var viewer: PhotoViewerScreen? { navigator.viewer }
    /// The photo in the air, if one is.
    public var flight: Flight? { navigator.flight }
    public private(set) var needsDisplay = true

    /// What input does, in every phase.
    let interaction: Interaction
    let navigator: PhotoNavigator
    private let queue: DecodeQueue
    let logger: Logger
    let thumbnails: GridThumbnails

    /// Device pixels a point (2 on a 2× display): the scene is laid out in points, and photos are
    /// decoded sharp for the pixels. It changes when the window moves to an output of another scale:
    /// decodes from then on are for the new pixels, the open photo's at once.
    public var pixelScale: Double {
        didSet {
            guard pixelScale != oldValue else { return }
            thumbnails.pixelScale = pixelScale
            navigator.pixelScale = pixelScale
        }
    }

    /// `size` in points.
    /// `queue` decodes the thumbnails and the open photos.
    /// `motion`: how released pulls move (`--motion`).
    /// `days`: what a timeline's day headers say (relative to today, in the environment's locale by default).
    /// `favorites`: the photos marked as favorites, and where marks are kept (nil: none).
    /// `playsSound`: clips play their sound through the sound server (a window's do; headless runs and tests play none).
    public init(photos: [Photo], size: Size, emptyMessage: String, queue: DecodeQueue, clock: FrameClock,
                pixelScale: Double = 1, motion: MotionStyle = .fluid, days: DayTitles? = nil, favorites: Favorites? = nil,
                playsSound: Bool = false, logger: Logger = Logger(label: "photozoom")) {
        self.photos = photos
        self.pixelScale = pixelScale
        self.queue = queue
        self.logger = logger
        animator = Animator(clock: clock)
        // A timeline (a folder's tree, by date) is in days, and opens at its newest photos.
        isTimeline = !photos.isEmpty && photos.allSatisfy { $0.date != nil }
        library = photos
        search = LibrarySearch(library: photos)
        self.emptyMessage = emptyMessage
        self.days = days ?? DayTitles()
        grid = GridScreen(photoCount: photos.count, size: size, animator: animator, emptyMessage: emptyMessage,
                          sections: isTimeline ? self.days.sections(of: photos) : [])
        thumbnails = GridThumbnails(grid: grid, photos: photos, queue: queue, pixelScale: pixelScale, logger: logger)
        navigator = PhotoNavigator(grid: grid, photos: photos, animator: animator, queue: queue, pixelScale: pixelScale,
                                   style: motion, favorites: favorites)
        navigator.playsSound = playsSound
        if let favorites, !favorites.isEmpty {
            for (i, photo) in photos.enumerated() where favorites.contains(photo.file) { grid.setFavorite(true, at: i) }
        }
        interaction = Interaction(navigator: navigator, clock: clock)
        (menu, trashing, dragOut, turns, playback) = (MenuController(logger: logger), TrashController(animator: animator, logger: logger),
            DragOutController(animator: animator, logger: logger), TurnController(logger: logger), PlaybackController(logger: logger))
        thumbnails.onAnimated = { [navigator] in navigator.markAnimated($0) }
        thumbnails.onMotion = { [navigator] in navigator.markMotion($0, $1) }
        if isTimeline { grid.showNewest() }
        thumbnails.update()
    }

    public var size: Size { grid.size }

    /// Reduce motion (`--reduce-motion`, or the desktop's `Gtk/EnableAnimations` off): the zoom-in,
    /// the fly-back and the arrow keys' page turns cross-fade in 0.15 s; gestures still follow the
    /// fingers. A change holds from the next flight or page turn.
    public var reducesMotion: Bool {
        get { navigator.reducesMotion }
        set { navigator.reducesMotion = newValue }
    }

    /// What the window's title says: the open photo's name, or the grid's.
    public var title: String { viewer.map { "\($0.photoName) — Photos" } ?? PhotoViewerApp.gridTitle }
    public static let gridTitle = "Photos — PhotoZoomAnimator"

    /// Whether something moves, or a tap waits to see if a second one comes: the loop then ticks
    /// at the frame rate.
    public var isAnimating: Bool { animator.isAnimating || interaction.isWaiting }

    /// True when nothing is left to load or animate: the frame on screen is final until the next input
    /// (a finger still holding the grid counts as settled; only input moves it).
    public var isSettled: Bool { queue.isIdle(.thumbnail) && !navigator.isLoading && !isAnimating && navigator.pendingOpen == nil }

    /// Whether fingers (or a touchpad) are zooming the open photo: the window draws such frames for
    /// speed, and the frame after the gesture well.
    public var isPinchZooming: Bool { viewer?.isPinching ?? false }

    /// Whether a finger or the pointer is down: what is drawn follows input as it comes.
    public var isTouching: Bool { interaction.isTouching }

    /// What the screen shows, for the launch figures (`--verbose` logs when each first holds).
    public var milestones: Set<LaunchMilestone> { LaunchMilestone.reached(by: self) }

    /// Opens photo `index` in the viewer, without the transition, once its thumbnail or its decode is in (a photo
    /// passed on its own: the viewer starts on it, and Escape flies it into its folder's grid). A
    /// photo that cannot be read stays a ⚠ cell in the grid.
    public func openWhenLoaded(_ index: Int) {
        guard photos.indices.contains(index) else { return }
        grid.reveal(index)
        navigator.prepareToOpen(index)
        thumbnails.update()
        openIfLoaded()
    }

    private func openIfLoaded() {
        if navigator.openIfLoaded(failed: navigator.pendingOpen.map(thumbnails.hasFailed) ?? false) { needsDisplay = true }
    }

    /// Advances every animation (and the recognizers' time-outs, and an animated photo's frames) to
    /// the clock's time.
    public func tick() {
        let before = (grid.scrollOffset, grid.arrangement)
        interaction.advanceToNow()
        animator.tick()
        passTime()
        _ = playback.advance(navigator, to: animator.clock.now)
        interaction.playWaitingKeys()
        performInteractionCommands()
        // While something moves (or a finger holds it), one decoder runs: on two cores the frame keeps the other.
        queue.concurrencyLimit = animator.isAnimating || interaction.isTouching ? 1 : queue.threadCount
        grid.scrolling.didTick()
        navigator.viewer?.didTick()
        if (grid.scrollOffset, grid.arrangement) != before { thumbnails.update() }
        needsDisplay = true
        debugOverlay.update(showing: self)
        frameObserver?(self)
        // Headless runs have no frame shown (`didDisplay`) to apply changes that waited for stillness.
        if !pendingChanges.isEmpty { applyPendingChanges() }
    }

    /// When the open photo's animation puts up its next frame (clock time); nil when none plays.
    /// Nothing else moving, the window draws only then, and only the photo (`advanceAnimationOnly`).
    public var nextAnimationFrame: Double? { navigator.animation?.nextDue }

    /// Puts up the animated photo's frame due now, while nothing else moves: the area of the window
    /// that changed (points), which alone needs drawing; nil when no frame was due.
    public func advanceAnimationOnly() -> Rect? { playback.advance(navigator, to: animator.clock.now) }

    /// Frames of the open photo's animation put up so far (the motion trace counts them).
    public var animationFramesShown: Int? { navigator.animation?.framesShown }

    /// Called after every tick (one per frame): `--trace` writes a line here.
    public var frameObserver: ((PhotoViewerApp) -> Void)?

    /// The `d` key's overlay.
    let debugOverlay = DebugOverlayController()
    /// What the last frame cost in the window (the window loop measures it).
    public var lastFrameTiming: FrameTiming?

    /// The state of the motion now.
    public var traceRecord: MotionTraceRecord { MotionTraceRecord(of: self) }

    /// Takes one input event (points, seconds). The overlays see it first (the go-to-date card, the menu, the help
    /// card, the undo card); what they pass goes to the interaction, and the app keeps the keys that are its own (slow
    /// motion, the overlay, the card, search, undo). What the interaction asks of the app follows.
    public func handle(_ event: InputEvent) -> Request? {
        let before = (grid.scrollOffset, grid.arrangement)
        defer {
            performInteractionCommands()
            if (grid.scrollOffset, grid.arrangement) != before { thumbnails.update() }
            needsDisplay = true
        }
        for overlay in [dateEntry.handle, menu.handle, help.handle, trashing.handle] {
            guard case .taken(let command) = overlay(event) else { continue }
            if let command { perform(command) }
            return nil
        }
        switch event {
        case .pointerDown(let at, 3, _) where navigator.viewer != nil:
            perform(.menu(at: at))   // a right click: the photo's menu where it was
        case .key(let name, let modifiers):
            // On the Search tab, typing goes to its field.
            if typeInSearch(name, control: modifiers.contains(.control)) { break }
            guard let action = KeyBinding.action(for: name, control: modifiers.contains(.control), alt: modifiers.contains(.alt)) else { break }
            return key(action)
        case .scroll, .pointerDown, .pointerMove, .pointerUp, .touch, .touchpadPinch:
            interaction.handle(event)
        }
        return nil
    }

    /// A key's action: the app's own, else the interaction's.
    private func key(_ action: KeyBinding.Action) -> Request? {
        if playback.key(action, on: navigator, at: animator.clock.now) { return nil }
        switch action {
        case .slowMotion:   // every animation ten times slower, as the simulator's slow animations
            animator.setSlowdown(animator.slowdown == 1 ? PhotoViewerApp.slowMotion : 1)
            logger.info(animator.slowdown == 1 ? "slow motion off" : "slow motion: animations 10× slower")
        case .debugOverlay: debugOverlay.toggle(over: root, showing: self)
        case .help: help.toggle(in: size, over: root)
        case .search: show(.search)
        case .goToDate: dateEntry.open(over: self, near: grid.indices(withinScreens: 0).lowerBound)
        case .undo: perform(.undo)
        case .quit, .screenshot, .record, .copy, .fullScreen, .close, .open, .playPause, .move, .zoom, .favorite, .trash,
             .info, .menu, .turn, .stepBack, .mute, .live, .libraryView:
            return interaction.key(action)
        }
        return nil
    }

    /// The newest pointer or touch event's time, on its source's clock (the window traces how long
    /// it took to reach the screen).
    public var lastInputTime: Seconds? { interaction.lastInputTime }

    public func resize(to size: Size) {
        guard size != grid.size else { return }
        navigator.resize(to: size)
        help.layOut(in: size)
        trashing.layOut(in: size)
        thumbnails.update()
        needsDisplay = true
    }

    /// Puts finished thumbnails into their cells (logging the ones that failed), and a sharper
    /// decode into the open photo.
    public func applyFinishedLoads() {
        if navigator.applyFinishedLoads() { needsDisplay = true }
        // Thumbnails prefetched out of the grid's view are drawn by no frame (the viewer's pages show
        // the grid's thumbnails, so with the viewer up any may be).
        let arrived = thumbnails.applyFinished()
        if arrived.inView || arrived.any && !navigator.isGridActive { needsDisplay = true }
        if arrived.any { navigator.thumbnailsArrived() }
        openIfLoaded()
    }

    /// Whether the photos are a timeline (a folder's tree, by date, in days).
    let isTimeline: Bool
    /// What the timeline's day headers say.
    let days: DayTitles
    /// What the grid says with no photos (the launch's words).
    let emptyMessage: String
    /// Every photo of the library (a tree, a folder, the files named), whatever the Search tab shows.
    var library: [Photo]
    /// The Search tab's words, and what the photos are searched by.
    let search: LibrarySearch
    /// The library's albums, as the Albums tab shows their covers (made when it is first shown, and again
    /// when the library changes under it).
    var albums: [Album] = []
    /// The album whose photos the Albums tab shows (nil: its covers, or another tab).
    var openedAlbum: FilePath?
    /// Where the covers were scrolled when an album was opened: Back returns there.
    var coversOffset = 0.0
    /// Where each shown photo is, by its file (made when first needed).
    lazy var indexOfFile = ShownPlaces { [unowned self] in photos }
    /// Changes in the photos' folders that change the list, kept until the grid is at rest.
    var pendingChanges = FolderWatcher.Changes()
    /// Where Delete moves photos (nil: `--read-only`, or a run that writes nothing, as most tests are).
    public var trash: Trash? {
        get { trashing.trash }
        set {
            trashing.trash = newValue
            navigator.showsTrash = newValue != nil
        }
    }
    /// Whether an explicit action (Ctrl+R) may write a photo's file (not with `--read-only`, nor in most tests).
    public var writesPhotos: Bool {
        get { turns.writesPhotos }
        set { turns.writesPhotos = newValue }
    }
    /// The photo's menu.
    let menu: MenuController
    /// The `?` key's card, and `Ctrl+G`'s.
    let help = HelpController(), dateEntry = DateEntryController()
    /// The Library tab's Years, Months, Days and All Photos.
    let views = LibraryViewsController()
    /// The trash, and the card that offers a photo back.
    let trashing: TrashController
    /// A photo lifted by a long press and carried out of the window.
    let dragOut: DragOutController
    /// Ctrl+R and twists.
    let turns: TurnController
    /// The open clip's keys and problems.
    let playback: PlaybackController

    /// The photos of the grid's first screen, where a launch opens (in order).
    public var firstScreenPhotos: ArraySlice<Photo> { photos[thumbnails.firstScreen] }

    /// Shows cells of the first screen as a launch before left them (pixels by photo index), each
    /// until its thumbnail comes.
    public func showLastSeen(_ pixels: [Int: PixelImage]) {
        thumbnails.showLastSeen(pixels)
        needsDisplay = true
    }

    /// The first screen's cells (photo, thumbnail, frame in points) once the grid shows each with its
    /// own thumbnail, at rest where it opened; nil until then.
    public var firstScreenShown: [(index: Int, photo: Photo, thumbnail: PixelImage, badge: String?, frame: Rect)]? {
        guard navigator.isGridActive, !isAnimating, let cells = thumbnails.firstScreenShown else { return nil }
        return cells.map { ($0.index, photos[$0.index], $0.thumbnail, $0.badge, $0.frame) }
    }

    /// Headless: runs frames on `clock` (the clock this app was made with) and waits for the
    /// decoders until nothing moves and every wanted thumbnail is in place.
    public func settle(stepping clock: ManualClock) { settle(stepping: clock, eachFrame: {}) }

    /// `eachFrame` is called after each frame the clock steps (a recording draws it).
    public func settle(stepping clock: ManualClock, eachFrame: () throws -> Void) rethrows {
        precondition(animator.clock === clock, "settle needs the app's own manual clock")
        repeat {
            while isAnimating {
                clock.advanceFrame()
                tick()
                // As a script's frames do: each waits for the decodes, so the frames are the same every run.
                waitForLoads()
                try eachFrame()
            }
            waitForLoads()
        } while !isSettled
    }

    /// Headless: blocks until the decodes asked for so far are done (and a playing animation's next
    /// frame), and places them: a run is the same every time.
    public func waitForLoads() {
        queue.waitUntilIdle()
        applyFinishedLoads()
        navigator.animation?.waitForNextFrame()
    }

    public func didDisplay() {
        needsDisplay = false
        // Changes to the folder that waited for a flight to land, a page to settle or a finger to lift.
        applyPendingChanges()
    }

    /// The window lost its contents (an expose): draw everything again.
    public func setNeedsDisplay() { needsDisplay = true }
}
