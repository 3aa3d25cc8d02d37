import Animation
import App
import Cairo
import CCairo
import Foundation
import Geometry
import Imaging
import Library
import Logging
import Outputs
import Pixels
import Rendering
import Scripting
import Transitions
import WindowSystem

/// One window's run, its state held as named properties. `step()` is one turn of the loop: take what arrived (the
/// files' changes, finished loads), draw a frame when one is due (`frame(animationOnly:)`), wait for the window's
/// events and take each (`handle(_:)`), the app's requests among them (`perform(_:)`).
final class WindowSession: RunRequests {
    /// What a frame sent to the display reports once it is on screen.
    struct FrameInFlight {
        var record: MotionTraceRecord?
        let milestones: Set<LaunchMilestone>
    }

    let platform: any WindowPlatform
    let settings: RunSettings
    let window: any PlatformWindow
    let colour: ColourTarget
    let wake: WakePipe
    let pacer: FramePacer
    var clock: FrameClock { pacer.clock }
    let renderer: SceneRenderer
    /// Where the grid's first screen is kept between launches (with the thumbnail cache).
    let snapshots: GridSnapshotStore?
    var logger: Logger { settings.logger }

    /// Device pixels a point: the app and the window's input work in points; the window's size and pixels in device pixels.
    var scale: Double
    var reducesMotion: Bool
    /// The app of the photos shown: the command line's, then whatever is dropped on the window.
    var app: PhotoViewerApp
    /// The launch's first screen as the last launch left it, while its thumbnails load.
    var launchSnapshot: LaunchGridSnapshot?
    /// Follows the folders of the selection: the app hears of the files that change in them.
    var watcher: FolderWatcher?
    /// A tree shown as the index remembered it is walked meanwhile: what it finds otherwise comes as changes.
    var confirmation: LibraryConfirmation?
    var player: WindowScriptPlayer?
    var title = PhotoViewerApp.gridTitle
    /// The photo the window was told is dragged out, and whether its refusal was said.
    var draggedOut: Photo?
    var dragRefusalSaid = false
    /// Seconds slept in `poll` since the last frame.
    var idle = 0.0
    var launch = LaunchLog()
    var cairoProblems = SaidOnce()
    /// `--record`'s and the one `r` started, taking frames; stopped ones still encoding.
    var recordings = WindowRecordings()
    /// The frames sent and not yet on screen, oldest first.
    var inFlight: [FrameInFlight] = []
    /// The newest input time a frame has shown.
    var inputShown: Double?
    var quality = MotionDrawQuality()
    /// Something moves, or a finger is on it: what `quality` weighs.
    var inMotion: Bool { app.isAnimating || app.isTouching }

    init(platform: any WindowPlatform, settings: RunSettings) throws {
        (self.platform, self.settings) = (platform, settings)
        let size = settings.size
        let scale = settings.scale ?? platform.desktopScale() ?? 1
        let colour = DisplayColour.target(profile: platform.displayColourProfile(), logger: settings.logger)
        window = try platform.openWindow(size: Size(width: (size.width * scale).rounded(), height: (size.height * scale).rounded()),
                                         scale: scale, followingDesktopScale: settings.scale == nil, title: PhotoViewerApp.gridTitle)
        if settings.script != nil, !window.injectsInput {
            throw ScriptFileError(message: "--script in a \(platform.name) window needs a compositor that makes virtual pointers and keyboards (wlroots' do: sway, Hyprland …); run it under X11 (--backend x11) or headless (--headless)")
        }
        // Read once the window watches the settings: a change from here on is seen.
        let reducesMotion = settings.reduceMotion || platform.animationsOff()
        if reducesMotion, !settings.reduceMotion { settings.logger.debug("reduce motion: the desktop turned animations off") }
        let wake = WakePipe(), pacer = FramePacer(window: window, fps: settings.fps)
        (self.scale, self.colour, self.reducesMotion, self.wake, self.pacer) = (scale, colour, reducesMotion, wake, pacer)
        snapshots = settings.thumbnails == nil ? nil : GridSnapshotStore.defaultFolder().map { GridSnapshotStore(folder: $0) }
        renderer = SceneRenderer(levels: .inBackground(wake: wake.signal))
        player = settings.script.map { WindowScriptPlayer(timeline: $0) }
        app = Self.makeApp(settings.library, size: size, settings: settings, colour: colour, scale: scale, reducesMotion: reducesMotion,
                           clock: pacer.clock, wake: wake)
        follow(settings.library)
        if let record = settings.record { try startRecording(record.path, limit: record.size) }
    }

    /// The app for a selection of photos: the command line's, then whatever is dropped on the window.
    static func makeApp(_ selection: PhotoSelection, size: Size, settings: RunSettings, colour: ColourTarget, scale: Double,
                        reducesMotion: Bool, clock: FrameClock, wake: WakePipe) -> PhotoViewerApp {
        let app = PhotoViewerApp(photos: selection.photos, size: size, emptyMessage: selection.emptyMessage,
                                 queue: DecodeQueue(colour: colour, thumbnails: settings.thumbnails?.shown(in: colour),
                                                    learnt: selection.thumbnailColours, wake: wake.signal),
                                 clock: clock, pixelScale: scale, motion: settings.motion, favorites: selection.favorites,
                                 playsSound: true, logger: settings.logger)
        app.reducesMotion = reducesMotion
        app.trash = settings.trash
        app.writesPhotos = settings.writesPhotos
        if let opening = selection.opening { app.openWhenLoaded(opening) }
        return app
    }

    /// The app shows `selection`: its first screen as the last launch left it while its thumbnails load (a photo
    /// opened on its own has none), and its folders followed.
    func follow(_ selection: PhotoSelection) {
        launchSnapshot = nil
        if selection.opening == nil, let snapshots {
            let snapshot = LaunchGridSnapshot(store: snapshots, app: app, scale: scale, colour: colour, logger: logger)
            snapshot.show(in: app)
            launchSnapshot = snapshot
        }
        watcher = FolderWatcher(folders: selection.folders, wake: wake.signal) { [logger] in logger.warning("\($0)") }
        confirmation = selection.confirmation
        confirmation?.start(wake: wake.signal)
    }

    func startRecording(_ path: String, limit: WindowSize?) throws {
        let recorder = try RunRecorder(path: path, viewWidth: Int(window.size.width), viewHeight: Int(window.size.height),
                                       limit: limit ?? WindowRecordings.defaultSize, fps: WindowRecordings.fps, live: true)
        recordings.start(BackgroundRecorder(recorder, colour: colour, logger: logger, wake: wake.signal), byKey: settings.record?.path != path)
        app.setNeedsDisplay()
    }

    /// Before the window closes: the frame in flight's line is written once it is shown, and the recordings end.
    func close() {
        let until = MonotonicClock.seconds() + 0.25
        while !inFlight.isEmpty, MonotonicClock.seconds() < until {
            for case .presented(let msc, let time) in window.events(waitingUpTo: until - MonotonicClock.seconds(), orUntilReadable: nil)
            where !inFlight.isEmpty {
                onScreen(inFlight.removeFirst(), shown: pacer.shown(msc: msc, at: time, onAGrid: window.presentsOnAGrid))
            }
        }
        recordings.stopAll(at: clock.now, waiting: true)
    }

    /// A frame is on screen (at refresh `shown`, when the display paces them): its trace line and the launch
    /// milestones it shows.
    func onScreen(_ frame: FrameInFlight, shown: PresentationClock.Shown?) {
        if let record = frame.record {
            settings.trace?.write(line: (shown.map { record.shown(msc: $0.msc, at: $0.time, missed: $0.missed) } ?? record).jsonLine)
        }
        launch.frameShown(reaching: frame.milestones, logger: logger)
    }

    /// One turn of the loop; `.end` when the run is over (closed, quit, or its screenshot written).
    func step() throws -> Turn {
        takeWhatArrived()
        var timeout = drawWhenDue()
        followApp()
        if let wait = try player?.play(due: MonotonicClock.seconds(), app: app, window: window, renderer: renderer, colour: colour) {
            timeout = min(timeout ?? wait, wait)
        }
        if let screenshot = settings.screenshot, app.isSettled, renderer.isIdle, player?.isFinished ?? true {
            try AppOutputs.screenshot(of: app, renderer: renderer, colour: colour, to: screenshot)
            return .end
        }
        let sleep = MonotonicClock.seconds()
        let events = window.events(waitingUpTo: timeout, orUntilReadable: wake.readDescriptor)
        idle += MonotonicClock.seconds() - sleep
        // What these events and the loads that follow start begins together, at one refresh.
        pacer.holdTime()
        for event in events where handle(event) == .end { return .end }
        return .goOn
    }

    /// The files' changes, the walk's findings, finished loads and scaled levels, into the app.
    private func takeWhatArrived() {
        wake.drain()
        recordings.forgetFinished()
        if let found = confirmation?.take() {
            confirmation = nil
            // Followed from here: every folder the walk listed (the watcher's changes so far come after the walk's).
            let since = watcher?.takeChanges()
            watcher = FolderWatcher(folders: found.folders, wake: wake.signal) { [logger] in logger.warning("\($0)") }
            var changes = found.changes
            if let since { changes.add(since) }
            logger.debug("library: the walk found \(found.changes.touched.count) photos new, gone or changed since the index")
            if !changes.isEmpty { app.filesChanged(changes) }
        }
        if let changes = watcher?.takeChanges(), !changes.isEmpty { app.filesChanged(changes) }
        app.applyFinishedLoads()
        app.passTime()
        if renderer.takeArrivedLevels() { app.setNeedsDisplay() }
        // The gesture or the motion is over: the frame drawn for speed is drawn again with the good filter.
        if quality.redrawsWell(drawnForSpeed: renderer.drawsForSpeed, pinching: app.isPinchZooming, inMotion: inMotion) {
            app.setNeedsDisplay()
        }
        if pacer.abandonOverdue(at: MonotonicClock.seconds()) {
            logger.debug("the display never said a frame was shown; the next one does not wait for it")
            if !inFlight.isEmpty { inFlight.removeFirst() }
        }
        pacer.releaseTime()
    }

    /// Draws a frame if one is wanted and the pacer says now; how long the loop may then sleep (nil: until an event).
    private func drawWhenDue() -> Double? {
        var timeout: Double?
        // Input moves the scene at most once a frame: a 1000 Hz mouse does not cost 1000 draws a second.
        // Only an animated photo moving, it alone is drawn.
        let wantsFrame = app.isAnimating || app.needsDisplay
        pacer.followsInput = app.isTouching
        let animationDue = !wantsFrame && app.nextAnimationFrame.map { clock.now >= $0 } == true
        pacer.inMotion = inMotion || app.nextAnimationFrame != nil
        if wantsFrame || animationDue, pacer.frameWanted(at: MonotonicClock.seconds()) == .drawNow {
            frame(animationOnly: !wantsFrame)
        }
        // Still wanted (the next frame of a motion, or a frame the pacer holds back): when to ask again.
        // The animated photo's next frame is judged at one reading of the clock: read twice, a refresh
        // passing between the readings made it neither due nor ahead, and the loop slept until input.
        let nextAnimationFrame = app.nextAnimationFrame, now = clock.now
        let stillDue = nextAnimationFrame.map { now >= $0 } == true
        if app.isAnimating || app.needsDisplay || stillDue {
            if case .wait(let seconds) = pacer.frameWanted(at: MonotonicClock.seconds()) { timeout = seconds } else { timeout = 0 }
        }
        // Its next frame wakes the loop when it is due (one due but not decoded yet, when it is).
        if let next = nextAnimationFrame, next > now { timeout = min(timeout ?? .infinity, next - now) }
        // The undo card goes on time with nothing else moving.
        if let deadline = app.nextDeadline { timeout = min(timeout ?? .infinity, max(0, deadline - now)) }
        // A frame left out for the recordings' rate was the last one: they get the scene at rest.
        if recordings.wantsRestingFrame, !app.isAnimating, !app.needsDisplay {
            recordings.restingFrame(at: clock.now, logger: logger) { [app, renderer] image in
                try renderer.draw(app.root, into: image, scale: Double(image.width) / app.size.width, clearingTo: 0xFF00_0000)
            }
        }
        return timeout
    }

    /// What the window shows of the app besides its frames: a photo dragged out past its edge, and its title.
    private func followApp() {
        if app.draggedOutPhoto != draggedOut {
            draggedOut = app.draggedOutPhoto
            if let photo = draggedOut, !window.offerDrag(ClipboardPhoto.items(for: photo, dragged: true, logger: logger)), !dragRefusalSaid {
                dragRefusalSaid = true
                logger.warning("a photo cannot be dragged out of the window on \(platform.name) (the display took no drag); Ctrl+C copies it")
            }
        }
        if app.title != title {
            title = app.title
            window.setTitle(title)
        }
    }
}
