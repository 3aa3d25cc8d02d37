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
    public enum Request: Equatable {
        case quit
        case screenshot
        case toggleFullScreen
        /// `r`: start recording, or stop and write the recording.
        case toggleRecording
        /// Ctrl+C in the viewer: put this photo on the clipboard.
        case copy(Photo)
    }

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
    /// The last event's time and the clock's then: event times (server ms) and the clock have
    /// different origins, and a double tap's time-out runs on the clock between events.
    private var eventClock: (event: Double, clock: Double)?
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
    public init(photos: [Photo], size: Size, emptyMessage: String, queue: DecodeQueue, clock: FrameClock,
                pixelScale: Double = 1, motion: MotionStyle = .fluid, days: DayTitles? = nil, favorites: Favorites? = nil,
                logger: Logger = Logger(label: "photozoom")) {
        self.photos = photos
        self.pixelScale = pixelScale
        self.queue = queue
        self.logger = logger
        animator = Animator(clock: clock)
        // A timeline (a folder's tree, by date) is in days, and opens at its newest photos.
        isTimeline = !photos.isEmpty && photos.allSatisfy { $0.date != nil }
        library = photos
        self.emptyMessage = emptyMessage
        self.days = days ?? DayTitles()
        grid = GridScreen(photoCount: photos.count, size: size, animator: animator, emptyMessage: emptyMessage,
                          sections: isTimeline ? self.days.sections(of: photos) : [])
        thumbnails = GridThumbnails(grid: grid, photos: photos, queue: queue, pixelScale: pixelScale, logger: logger)
        navigator = PhotoNavigator(grid: grid, photos: photos, animator: animator, queue: queue, pixelScale: pixelScale,
                                   style: motion, favorites: favorites)
        if let favorites {
            for (i, photo) in photos.enumerated() where favorites.contains(photo.file) { grid.setFavorite(true, at: i) }
        }
        interaction = Interaction(navigator: navigator)
        interaction.tabChosen = { [unowned self] in show($0) }
        interaction.coverChosen = { [unowned self] in openAlbum(at: $0) }
        interaction.backChosen = { [unowned self] in closeAlbum() }
        interaction.trashChosen = { [unowned self] in trashChosenPhoto() }
        interaction.menuChosen = { [unowned self] in openMenu(at: nil) }
        interaction.photoActionChosen = { [unowned self] action in
            switch action {
            case .trash: trashChosenPhoto()
            case .turn(let clockwise): turnOpenPhoto(clockwise: clockwise)
            case .menu: openMenu(at: nil)
            default: break
            }
        }
        interaction.isOnUndoCard = { [unowned self] in undoCard?.contains($0) ?? false }
        interaction.undoChosen = { [unowned self] in undoTrash() }
        interaction.twist = (begin: { [unowned self] in beginTwist() },
                             change: { [unowned self] in navigator.viewer?.twist(angle: $0) },
                             end: { [unowned self] in endTwist(at: $0) })
        interaction.dragOut = (lift: { [unowned self] in liftForDragOut(at: $0) },
                               move: { [unowned self] in dragOutMoved(to: $0) },
                               end: { [unowned self] in dragOutEnded(at: $0, cancelled: $1) })
        thumbnails.onAnimated = { [navigator] in navigator.markAnimated($0) }
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
    public var isSettled: Bool { queue.isIdle(.thumbnail) && !navigator.isLoading && !isAnimating && pendingOpen == nil }

    /// Whether fingers (or a touchpad) are zooming the open photo: the window draws such frames for
    /// speed, and the frame after the gesture well.
    public var isPinchZooming: Bool { viewer?.isPinching ?? false }

    /// Whether a finger or the pointer is down: what is drawn follows input as it comes.
    public var isTouching: Bool { interaction.isTouching }

    /// What the screen shows, for the launch figures (`--verbose` logs when each first holds).
    public var milestones: Set<LaunchMilestone> {
        var reached: Set<LaunchMilestone> = []
        if thumbnails.hasAny || viewer?.image != nil { reached.insert(.firstPhoto) }
        if viewer == nil, thumbnails.isViewFilled { reached.insert(.gridFilled) }
        if viewer == nil, thumbnails.isViewComplete { reached.insert(.gridComplete) }
        if let viewer, let image = viewer.image, Double(image.width) >= 0.9 * viewer.fitFrame.width * pixelScale {
            reached.insert(.photoSharp)
        }
        return reached
    }

    /// A photo to open as soon as its thumbnail is in.
    var pendingOpen: Int?

    /// Opens photo `index` in the viewer, without the transition, once its thumbnail or its decode is in (a photo
    /// passed on its own: the viewer starts on it, and Escape flies it into its folder's grid). A
    /// photo that cannot be read stays a ⚠ cell in the grid.
    public func openWhenLoaded(_ index: Int) {
        guard photos.indices.contains(index) else { return }
        grid.reveal(index)
        navigator.prepareToOpen(index)
        thumbnails.update()
        pendingOpen = index
        openIfLoaded()
    }

    private func openIfLoaded() {
        guard let index = pendingOpen else { return }
        if navigator.canOpen(index) {
            pendingOpen = nil
            navigator.open(index, animated: false)
            needsDisplay = true
        } else if thumbnails.hasFailed(index) {
            pendingOpen = nil
            navigator.liftCurtain()
            needsDisplay = true
        }
    }

    /// Advances every animation (and the recognizers' time-outs, and an animated photo's frames) to
    /// the clock's time.
    public func tick() {
        let before = (grid.scrollOffset, grid.arrangement)
        if let eventClock { interaction.advance(to: eventClock.event + animator.clock.now - eventClock.clock) }
        animator.tick()
        passTime()
        _ = navigator.advanceAnimation(to: animator.clock.now)
        interaction.playWaitingKeys()
        // While something moves (or a finger holds it), one decoder runs: on two cores the frame keeps the other.
        queue.concurrencyLimit = isAnimating || interaction.isTouching ? 1 : queue.threadCount
        grid.scrolling.didTick()
        navigator.viewer?.didTick()
        if (grid.scrollOffset, grid.arrangement) != before { thumbnails.update() }
        needsDisplay = true
        updateDebugOverlay()
        frameObserver?(self)
        // Headless runs have no frame shown (`didDisplay`) to apply changes that waited for stillness.
        if !pendingChanges.isEmpty { applyPendingChanges() }
    }

    /// When the open photo's animation puts up its next frame (clock time); nil when none plays.
    /// Nothing else moving, the window draws only then, and only the photo (`advanceAnimationOnly`).
    public var nextAnimationFrame: Double? { navigator.animation?.nextDue }

    /// Puts up the animated photo's frame due now, while nothing else moves: the area of the window
    /// that changed (points), which alone needs drawing; nil when no frame was due.
    public func advanceAnimationOnly() -> Rect? {
        navigator.advanceAnimation(to: animator.clock.now)
    }

    /// Frames of the open photo's animation put up so far (the motion trace counts them).
    public var animationFramesShown: Int? { navigator.animation?.framesShown }

    /// Called after every tick (one per frame): `--trace` writes a line here.
    public var frameObserver: ((PhotoViewerApp) -> Void)?

    /// The `d` key's overlay, while shown.
    private var debugOverlay: DebugOverlay?
    /// What the last frame cost in the window (the window loop measures it).
    public var lastFrameTiming: FrameTiming?

    private func toggleDebugOverlay() {
        if let overlay = debugOverlay {
            overlay.root.removeFromParent()
            debugOverlay = nil
        } else {
            let overlay = DebugOverlay()
            root.addChild(overlay.root)
            debugOverlay = overlay
            updateDebugOverlay()
        }
        needsDisplay = true
    }

    /// The `?` key's card, while shown.
    private var help: HelpCard?

    private func toggleHelp() {
        if let help {
            help.root.removeFromParent()
            self.help = nil
        } else {
            let card = HelpCard()
            card.layOut(in: size)
            root.addChild(card.root)
            help = card
        }
        needsDisplay = true
    }

    private func updateDebugOverlay() {
        guard let overlay = debugOverlay else { return }
        let record = traceRecord
        let release = interaction.activeDrag.flatMap { navigator.releasePrediction(translation: $0.translation, velocity: $0.velocity) }
        overlay.show(record, scale: navigator.flyingScale, release: release, timing: lastFrameTiming,
                     at: Point(x: 12, y: 64))
    }

    /// The state of the motion now.
    public var traceRecord: MotionTraceRecord {
        let drag = interaction.activeDrag
        let photo = root.descendant(named: "transitionImage") ?? navigator.viewer?.photoNode
        return MotionTraceRecord(
            time: (animator.clock.now * 1_000_000).rounded() / 1_000_000,
            screen: navigator.viewer == nil ? "grid" : "viewer",
            flight: navigator.flight?.stage.rawValue ?? "none",
            flightMover: navigator.flight?.mover.rawValue,
            phase: interaction.phase.rawValue,
            photoFrame: photo.map { $0.convert($0.bounds, to: nil).traceArray },
            backgroundAlpha: navigator.viewer?.root.alpha ?? 0,
            tabBarAlpha: grid.tabBar.alpha,
            translation: drag?.translation.traceArray,
            velocity: drag?.velocity.traceArray,
            zoom: navigator.viewer.map { ($0.zoomScale * 10000).rounded() / 10000 },
            page: navigator.viewer?.index,
            animating: isAnimating,
            gridOffset: (grid.scrollOffset * 1000).rounded() / 1000,
            imagePixels: photo?.image.map { [$0.width, $0.height] },
            animationFrame: animationFramesShown)
    }

    /// Takes one input event (points, seconds). Pointers, touches, wheel and keys go to the
    /// interaction; the app keeps the keys that are its own (slow motion, the overlay, the card).
    public func handle(_ event: InputEvent) -> Request? {
        let before = (grid.scrollOffset, grid.arrangement)
        defer {
            if (grid.scrollOffset, grid.arrangement) != before { thumbnails.update() }
            needsDisplay = true
        }
        switch event {
        case .scroll(let dx, let dy, let unit, let at, let modifiers):
            interaction.scrolled(dx: dx, dy: dy, unit: unit, at: at, control: modifiers.contains(.control))
        case .key(let name, _) where menu != nil:
            menuKey(name)
        case .pointerDown(let at, _, _) where menu != nil, .touch(.begin, _, let at, _) where menu != nil:
            menuTookPress = true
            menuPressed(at: at)
        case .pointerUp where menuTookPress, .touch(.end, _, _, _) where menuTookPress:
            menuTookPress = false
        case .pointerMove(let to, _) where menu != nil:
            menuHovered(at: to)
        case .pointerDown(let at, 3, _) where navigator.viewer != nil:
            openMenu(at: at)   // a right click: the photo's menu where it was
        case .key(let name, let modifiers):
            // On the Search tab, typing goes to its field.
            if typeInSearch(name, control: modifiers.contains(.control)) { break }
            guard let action = KeyBinding.action(for: name, control: modifiers.contains(.control), alt: modifiers.contains(.alt)) else { break }
            switch action {
            case .playPause where navigator.togglePlayback(at: animator.clock.now):
                logger.debug(navigator.animation?.isPaused == true ? "animation paused" : "animation playing")
            case .slowMotion:   // every animation ten times slower, as the simulator's slow animations
                animator.setSlowdown(animator.slowdown == 1 ? PhotoViewerApp.slowMotion : 1)
                logger.info(animator.slowdown == 1 ? "slow motion off" : "slow motion: animations 10× slower")
            case .debugOverlay: toggleDebugOverlay()
            case .help, .close where help != nil && name == "Escape": toggleHelp()   // the card goes first
            case .search: show(.search)
            case .undo: undoTrash()
            default: return interaction.key(action)
            }
        case .pointerDown(let at, let button, let time):
            guard button == 1 else { break }
            pointer(PointerEvent(.down, at: at, time: time))
        case .pointerMove(let to, let time):
            pointer(PointerEvent(.move, at: to, time: time))
        case .pointerUp(let at, let button, let time):
            guard button == 1 else { break }
            pointer(PointerEvent(.up, at: at, time: time))
        case .touch(let phase, let id, let at, let time):
            // Fingers are pointers 1, 2, …; the mouse is pointer 0.
            pointer(PointerEvent(phase.pointerPhase, id: id + 1, at: at, time: time))
        case .touchpadPinch(let phase, let scale, let at, let time):
            // Two virtual fingers (pointers −1 and −2) either side of the pointer: the pinch
            // recognizer takes a touchpad pinch as it takes one on the screen.
            let spread = PhotoViewerApp.touchpadFingerSpread * scale
            for (id, dx) in [(-1, -spread), (-2, spread)] {
                pointer(PointerEvent(phase.pointerPhase, id: id, at: Point(x: at.x + dx, y: at.y), time: time))
            }
        }
        return nil
    }

    /// A touchpad pinch's virtual fingers start this far either side of the pointer, px.
    static let touchpadFingerSpread = 100.0

    /// The newest pointer or touch event's time, on its source's clock (the window traces how long
    /// it took to reach the screen).
    public var lastInputTime: Seconds? { eventClock?.event }

    private func pointer(_ event: PointerEvent) {
        eventClock = (event.time, animator.clock.now)
        interaction.handle(event)
    }

    public func resize(to size: Size) {
        guard size != grid.size else { return }
        navigator.resize(to: size)
        help?.layOut(in: size)
        undoCard?.layOut(in: size)
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
    /// The Search tab's words, while it is shown (nil: another tab).
    var search: PhotoQuery?
    /// The library's albums, as the Albums tab shows their covers (made when it is first shown, and again
    /// when the library changes under it).
    var albums: [Album] = []
    /// The album whose photos the Albums tab shows (nil: its covers, or another tab).
    var openedAlbum: FilePath?
    /// Where the covers were scrolled when an album was opened: Back returns there.
    var coversOffset = 0.0
    /// What each photo of the library is searched by, made at the first search (nil again when the library
    /// changes).
    var haystacks: [PhotoQuery.Haystack]?
    /// Where each shown photo is, by its file (made when first needed).
    lazy var indexOfFile: [FilePath: Int] = PhotoViewerApp.places(of: photos)
    /// Changes in the photos' folders that change the list, kept until the grid is at rest.
    var pendingChanges = FolderWatcher.Changes()
    /// Where Delete moves photos (nil: `--read-only`, or a run that writes nothing, as most tests are).
    public var trash: Trash? {
        didSet { navigator.showsTrash = trash != nil }
    }
    /// Whether an explicit action (Ctrl+R) may write a photo's file (not with `--read-only`, nor in most tests).
    public var writesPhotos = false
    /// The formats already said to turn on screen only (said once each).
    var turnedOnScreenOnly: Set<String> = []
    /// The photo's menu, while it shows.
    var menu: ActionMenu?
    /// The desktop's applications, read when the menu first opens.
    var desktopApplications: DesktopApplications?
    /// A press the menu took: its release is the menu's too.
    var menuTookPress = false
    /// The card offering the last photo moved to the trash back, while it shows.
    var undoCard: UndoCard?
    /// The photo a long press lifted to drag it out, while the finger carries it.
    var dragOut: PhotoDragOut?
    /// A photo put back from the trash: once the list has it again, the viewer (if open) shows it.
    var returning: FilePath?
    /// The folder the library was opened at: the folders below it are searched by name.
    lazy var libraryRoot: [FilePath.Component] = PhotoViewerApp.commonFolder(of: library)

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
    public var firstScreenShown: [(index: Int, photo: Photo, thumbnail: PixelImage, frame: Rect)]? {
        guard navigator.isGridActive, !isAnimating, let cells = thumbnails.firstScreenShown else { return nil }
        return cells.map { ($0.index, photos[$0.index], $0.thumbnail, $0.frame) }
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

private extension TouchPhase {
    var pointerPhase: PointerEvent.Phase {
        switch self {
        case .begin: .down
        case .update: .move
        case .end: .up
        case .cancel: .cancel
        }
    }
}
