import Animation
import App
import Cairo
import CCairo
import Foundation
import Geometry
import Glibc
import Imaging
import Library
import Logging
import Outputs
import Pixels
import Rendering
import Scripting
import SystemPackage
import Transitions
import WindowSystem

/// The interactive loop: tick and draw while something moves, each frame at a refresh of the display
/// when it paces them (X Present), else on a timer (`FramePacer`); otherwise sleep in `poll` until the
/// window system, a finished thumbnail or the next script step wakes it, so idle costs no CPU. A script
/// starts once the first screen has settled and plays in real time, its input sent through the window
/// system (`PlatformWindow.inject`). Nothing here knows which window system it is.
public struct WindowRun {
    /// X11 or Wayland.
    let platform: any WindowPlatform
    /// In points.
    let size: Size
    /// Device pixels a point; nil: the desktop's (`WindowPlatform.desktopScale`).
    let scale: Double?
    /// `--fps`, a cap; nil: the display's rate.
    let fps: Double?
    /// How released pulls move.
    let motion: MotionStyle
    /// `--reduce-motion`; the desktop can ask for it too.
    let reduceMotion: Bool
    let trace: TraceFile?
    let library: PhotoSelection
    /// Where Delete moves photos; nil: `--read-only`.
    let trash: Trash?
    /// Whether Ctrl+R writes a photo's file (not with `--read-only`).
    let writesPhotos: Bool
    /// The freedesktop thumbnail cache, unless `--no-thumbnail-cache`.
    let thumbnails: ThumbnailCache?
    let logger: Logger

    public init(platform: any WindowPlatform, size: Size, scale: Double?, fps: Double?, motion: MotionStyle, reduceMotion: Bool,
                trace: TraceFile?, library: PhotoSelection, trash: Trash?, writesPhotos: Bool, thumbnails: ThumbnailCache?, logger: Logger) {
        self.platform = platform
        self.size = size
        self.scale = scale
        self.fps = fps
        self.motion = motion
        self.reduceMotion = reduceMotion
        self.trace = trace
        self.library = library
        self.trash = trash
        self.writesPhotos = writesPhotos
        self.thumbnails = thumbnails
        self.logger = logger
    }

    /// What a frame sent to the display reports once it is on screen.
    private struct FrameInFlight {
        var record: MotionTraceRecord?
        let milestones: Set<LaunchMilestone>
    }

    public func run(script: ScriptTimeline?, screenshot: String?, record: RecordingRequest?) throws {
        // Photos let go (a viewer closed) free their memory off the frame's thread.
        LargeImageRelease.start()
        FontWarmUp.start()
        // The app works in points; the window, its events and its pixels in device pixels.
        var scale = scale ?? platform.desktopScale() ?? 1
        let colour = DisplayColour.target(profile: platform.displayColourProfile(), logger: logger)
        let window = try platform.openWindow(size: Size(width: (size.width * scale).rounded(), height: (size.height * scale).rounded()),
                                             scale: scale, followingDesktopScale: self.scale == nil, title: PhotoViewerApp.gridTitle)
        if script != nil, !window.injectsInput {
            throw ScriptFileError(message: "--script in a \(platform.name) window needs a compositor that makes virtual pointers and keyboards (wlroots' do: sway, Hyprland …); run it under X11 (--backend x11) or headless (--headless)")
        }
        // Read once the window watches the settings: a change from here on is seen.
        var reducesMotion = reduceMotion || desktopAnimationsOff()
        if reducesMotion, !reduceMotion { logger.debug("reduce motion: the desktop turned animations off") }
        let wake = WakePipe()
        let pacer = FramePacer(window: window, fps: fps)
        let clock = pacer.clock
        /// The app for a selection of photos: the command line's, then whatever is dropped on the window.
        func makeApp(_ selection: PhotoSelection, size: Size) -> PhotoViewerApp {
            let app = PhotoViewerApp(photos: selection.photos, size: size, emptyMessage: selection.emptyMessage,
                                     queue: DecodeQueue(colour: colour, thumbnails: thumbnails?.shown(in: colour), wake: wake.signal),
                                     clock: clock, pixelScale: scale,
                                     motion: motion, favorites: selection.favorites, logger: logger)
            app.reducesMotion = reducesMotion
            app.trash = trash
            app.writesPhotos = writesPhotos
            launchSnapshot = nil
            if let opening = selection.opening {
                app.openWhenLoaded(opening)
            } else if let snapshots {
                // The first screen as the last launch left it, while its thumbnails load.
                let snapshot = LaunchGridSnapshot(store: snapshots, app: app, scale: scale, colour: colour, logger: logger)
                snapshot.show(in: app)
                launchSnapshot = snapshot
            }
            return app
        }
        /// Where the grid's first screen is kept between launches (with the thumbnail cache), and the
        /// launch's (a photo opened from the command line has none).
        let snapshots = thumbnails == nil ? nil : GridSnapshotStore.defaultFolder().map { GridSnapshotStore(folder: $0) }
        var launchSnapshot: LaunchGridSnapshot?
        var app = makeApp(library, size: size)
        /// Follows the folders of the selection: the app hears of the files that change in them.
        func watch(_ selection: PhotoSelection) -> FolderWatcher? {
            FolderWatcher(folders: selection.folders, wake: wake.signal) { logger.warning("\($0)") }
        }
        var watcher = watch(library)
        /// A tree shown as the index remembered it is walked meanwhile: what it finds otherwise comes as changes.
        var confirmation = library.confirmation
        confirmation?.start(wake: wake.signal)
        let renderer = SceneRenderer(levels: .inBackground(wake: wake.signal))
        var player = script.map { WindowScriptPlayer(timeline: $0) }
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
        func startRecording(_ path: String, limit: WindowSize?) throws {
            let recorder = try RunRecorder(path: path, viewWidth: Int(window.size.width), viewHeight: Int(window.size.height),
                                           limit: limit ?? WindowRecordings.defaultSize, fps: WindowRecordings.fps, live: true)
            recordings.start(BackgroundRecorder(recorder, colour: colour, logger: logger, wake: wake.signal), byKey: record?.path != path)
            app.setNeedsDisplay()
        }
        if let record { try startRecording(record.path, limit: record.size) }
        defer { recordings.stopAll(at: clock.now, waiting: true) }
        /// The frames sent and not yet on screen, oldest first.
        var inFlight: [FrameInFlight] = []
        /// The newest input time a frame has shown.
        var inputShown: Double?
        var quality = MotionDrawQuality()
        /// Something moves, or a finger is on it: what `quality` weighs.
        var inMotion: Bool { app.isAnimating || app.isTouching }

        /// A frame is on screen (at refresh `shown`, when the display paces them): its trace line and the
        /// launch milestones it shows.
        func onScreen(_ frame: FrameInFlight, shown: PresentationClock.Shown?) {
            if let record = frame.record {
                trace?.write(shown.map { record.shown(msc: $0.msc, at: $0.time, missed: $0.missed) } ?? record)
            }
            launch.frameShown(reaching: frame.milestones, logger: logger)
        }

        /// One frame: the animations move to the time it will be on screen (or, `animationOnly`, just the
        /// animated photo's next frame, and only its area is drawn), the scene is drawn and sent.
        func frame(animationOnly: Bool) {
            let started = MonotonicClock.seconds()
            let msc = pacer.beginFrame(at: started)
            var area: Rect?
            if animationOnly {
                guard let changed = app.advanceAnimationOnly() else {
                    pacer.endFrame(started: started, at: MonotonicClock.seconds(), sent: false)
                    return
                }
                area = changed
            } else {
                app.tick()
                quality.frameBegins(inMotion: inMotion)
                renderer.drawsForSpeed = app.isPinchZooming || quality.forSpeed
            }
            let frameTime = clock.now
            var record = trace.map { _ in app.traceRecord }
            record?.damage = area?.traceArray
            if let input = app.lastInputTime, input != inputShown {
                inputShown = input
                record?.inputAt = window.monotonicTime(ofInputTime: input)
            }
            var drawn = started
            do {
                try window.present(area: area.map { PixelRect(enclosing: $0, scale: scale) }, atRefresh: msc) { cr in
                    renderer.draw(app.root, on: cr, scale: scale)
                    drawn = MonotonicClock.seconds()
                    if recordings.isRecording {
                        recordings.framePresented(cairo_get_target(cr), at: frameTime, logger: logger)
                        if area == nil { RecordingDot.draw(on: cr, windowWidth: window.size.width, scale: scale) }
                    }
                }
            } catch {
                cairoProblems.say(error, logger: logger)
            }
            if let failure = renderer.takeFailure() { cairoProblems.say(failure, logger: logger) }
            let sent = MonotonicClock.seconds()
            if !animationOnly {
                quality.frameDrawn(inMotion: inMotion, seconds: drawn - started, interval: clock.frameInterval)
            }
            pacer.endFrame(started: started, at: sent, sent: true)
            let timing = FrameTiming(draw: (drawn - started) * 1000, present: (sent - drawn) * 1000, idle: idle * 1000)
            app.lastFrameTiming = timing
            idle = 0
            let sentFrame = FrameInFlight(record: record?.with(timing), milestones: launch.isComplete || animationOnly ? [] : app.milestones)
            if window.pacesByRefresh { inFlight.append(sentFrame) } else { onScreen(sentFrame, shown: nil) }
            guard !animationOnly else { return }
            app.didDisplay()
            launchSnapshot?.keepWhenComplete(app)
            // Thumbnails drawn at a new size get their exact copies on the next frame at rest.
            if renderer.wantsAnotherDraw { app.setNeedsDisplay() }
        }

        /// Before the window closes: the frame in flight's line is written once it is shown.
        defer {
            let until = MonotonicClock.seconds() + 0.25
            while !inFlight.isEmpty, MonotonicClock.seconds() < until {
                for case .presented(let msc, let time) in window.events(waitingUpTo: until - MonotonicClock.seconds(), orUntilReadable: nil) where !inFlight.isEmpty {
                    onScreen(inFlight.removeFirst(), shown: pacer.shown(msc: msc, at: time, onAGrid: window.presentsOnAGrid))
                }
            }
        }

        while true {
            wake.drain()
            recordings.forgetFinished()
            if let found = confirmation?.take() {
                confirmation = nil
                // Followed from here: every folder the walk listed (the watcher's changes so far come after the walk's).
                let since = watcher?.takeChanges()
                watcher = FolderWatcher(folders: found.folders, wake: wake.signal) { logger.warning("\($0)") }
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
            if quality.redrawsWell(drawnForSpeed: renderer.drawsForSpeed, pinching: app.isPinchZooming,
                                   inMotion: inMotion) {
                app.setNeedsDisplay()
            }
            if pacer.abandonOverdue(at: MonotonicClock.seconds()) {
                logger.debug("the display never said a frame was shown; the next one does not wait for it")
                if !inFlight.isEmpty { inFlight.removeFirst() }
            }
            pacer.releaseTime()
            var timeout: Double?
            // Input moves the scene at most once a frame: a 1000 Hz mouse does not cost 1000 draws a second.
            // Only an animated photo moving, it alone is drawn.
            let wantsFrame = app.isAnimating || app.needsDisplay
            pacer.followsInput = app.isTouching
            let animationDue = !wantsFrame && app.nextAnimationFrame.map { clock.now >= $0 } == true
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
                recordings.restingFrame(at: clock.now, logger: logger) { image in
                    try renderer.draw(app.root, into: image, scale: Double(image.width) / app.size.width, clearingTo: 0xFF00_0000)
                }
            }
            // A photo lifted to be dragged out: the window carries it past its edge.
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
            if let wait = try player?.play(due: MonotonicClock.seconds(), app: app, window: window, renderer: renderer, colour: colour) {
                timeout = min(timeout ?? wait, wait)
            }
            if let screenshot, app.isSettled, renderer.isIdle, player?.isFinished ?? true {
                try ScreenshotFile.write(app, renderer, colour: colour, to: screenshot)
                return
            }
            let sleep = MonotonicClock.seconds()
            let events = window.events(waitingUpTo: timeout, orUntilReadable: wake.readDescriptor)
            idle += MonotonicClock.seconds() - sleep
            // What these events and the loads that follow start begins together, at one refresh.
            pacer.holdTime()
            for event in events {
                switch event {
                case .presented(let msc, let time):
                    let shown = pacer.shown(msc: msc, at: time, onAGrid: window.presentsOnAGrid)
                    if !inFlight.isEmpty { onScreen(inFlight.removeFirst(), shown: shown) }
                case .desktopSettingsChanged:
                    // The desktop's animations switch, flipped while the window is open, takes effect at
                    // once (a flight under way finishes as it began).
                    let reduces = reduceMotion || desktopAnimationsOff()
                    if reduces != reducesMotion {
                        reducesMotion = reduces
                        app.reducesMotion = reduces
                        logger.debug("reduce motion \(reduces ? "on" : "off"): the desktop turned animations \(reduces ? "off" : "on") (Gtk/EnableAnimations)")
                    }
                case .refreshRateChanged(let rate):
                    logger.debug("the output's refresh rate is now \(rate.map { String(format: "%.2f Hz", $0) } ?? "unknown")")
                    pacer.rateChanged(to: rate, lead: window.refreshLead)
                case .closeRequested:
                    return
                case .exposed:
                    app.setNeedsDisplay()
                case .dropped(let lines):
                    // As from the command line: a folder, files, or one file among its folder's photos.
                    let (local, remote, text) = DroppedItems.split(lines)
                    for uri in remote { logger.warning("\(uri): only files on this computer can be opened") }
                    if local.isEmpty, let first = text.first {
                        logger.warning("the dropped text names no file (\(first.prefix(60).debugDescription)); the photos shown stay")
                    }
                    guard !local.isEmpty else { break }
                    let paths = local.map(PhotoLibrary.localPath)
                    logger.info("opening \(paths.count == 1 ? "\(paths[0])" : "\(paths.count) dropped items")")
                    let selection = PhotoSelection.collect(paths, logger: logger, rememberedFrom: PhotoSelection.rememberedFrom())
                    app = makeApp(selection, size: app.size)
                    watcher = watch(selection)
                    confirmation = selection.confirmation
                    confirmation?.start(wake: wake.signal)
                case .resized(let newSize):
                    app.resize(to: Size(width: newSize.width / scale, height: newSize.height / scale))
                case .scaleChanged(let newScale):
                    scale = newScale
                    app.pixelScale = newScale
                    app.setNeedsDisplay()
                case .input(let input):
                    switch app.handle(input.scaled(by: 1 / scale)) {
                    case .quit?:
                        return
                    case .toggleFullScreen?:
                        window.toggleFullScreen()
                    case .screenshot?:
                        let path = ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath)
                        do {
                            try ScreenshotFile.write(app, renderer, colour: colour, to: path)
                            logger.info("saved screenshot \(path)")
                        } catch {
                            logger.error("\(error)")
                        }
                    case .toggleRecording?:
                        if recordings.isRecordingByKey {
                            recordings.stopKeyRecording(at: clock.now)
                            app.setNeedsDisplay()   // the dot goes
                        } else {
                            do {
                                try startRecording(ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath, extension: "webp"),
                                                   limit: nil)
                                logger.info("recording to \(recordings.keyPath ?? "")")
                            } catch {
                                logger.error("\(error)")
                            }
                        }
                    case .copy(let photo)?:
                        if window.offerClipboard(ClipboardPhoto.items(for: photo, logger: logger)) {
                            logger.info("copied \(photo.name)")
                        } else {
                            logger.warning("the clipboard could not be taken; nothing was copied")
                        }
                    case nil:
                        break
                    }
                }
            }
        }
    }

    /// Whether the desktop turned its animations off (on X11, XSETTINGS `Gtk/EnableAnimations` = 0).
    private func desktopAnimationsOff() -> Bool {
        platform.animationsOff()
    }
}
