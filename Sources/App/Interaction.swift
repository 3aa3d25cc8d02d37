import Animation
import Geometry
import Gestures
import Grid
import Input
import Transitions
import Viewer

/// The one owner of what input does: every press, move, lift, pinch, wheel and key arrives here, and
/// each hand-off between phases is stated here. "What happens when X during Y" is in this file (and for keys, in
/// Interaction+Keys).
///
/// What the fingers do is `gesture`; a photo in the air (zooming in, flying back, springing back,
/// flying into its cell) is a `Flight`, the transition controller's, and counts as a phase of its
/// own. What keys do to it is `Flight.answer`'s table; here: a press on it takes it (a drag then
/// pulls it, a lift without a drag opens it from where it is), and arrow and zoom keys wait until it
/// lands in the viewer, and are dropped if it lands in the grid.
final class Interaction {
    typealias Gesture = FingerGesture
    typealias Phase = InteractionPhase

    private(set) var gesture: Gesture?

    /// The phase, for the trace and the `d` overlay.
    var phase: Phase { dates.isDragging ? .scrubbingDates : Phase(gesture, inTheAir: navigator.flight.map { $0.stage != .held } == true) }

    let navigator: PhotoNavigator
    var grid: GridScreen { navigator.grid }
    /// The photo in the air: taken, followed and let go through its owner's verbs.
    private var transitions: ZoomTransitionController { navigator.transitions }
    private let gestures = GestureCenter()
    /// The grid's date scrubber: when it shows, and a press on its handle, which is then its own until it lifts.
    private lazy var dates = DateScrubberController(navigator: navigator)
    /// The one drag: what it moves is chosen when it begins.
    private let pan = PanRecognizer()
    /// Recognizes at once: opens a cell in the grid, or presses the viewer's back button.
    private let immediateTap = TapRecognizer()
    /// The viewer's single tap (the bars) waits for its double tap (zoom) to fail.
    private let viewerTap = TapRecognizer()
    private let viewerDoubleTap = TapRecognizer(taps: 2)
    private let pinch = PinchRecognizer()
    /// A press held still lifts the photo under it, to drag it out of the window.
    private let longPress = LongPressRecognizer()
    /// The last press caught a coasting grid, so its tap doesn't open a photo.
    private var pressStoppedScrolling = false
    /// Whether the grid had its most columns as the pinch began (a pinch together from there goes to Days).
    private var pinchBeganAtMostColumns = false
    /// The last press took a photo in the air, and no drag has moved it yet.
    private var holdsTakenPhoto = false
    /// Ctrl+scroll units on the grid not yet a whole notch.
    private var controlScrollUnits = 0.0
    /// Keys for the viewer pressed while the photo flies into it: they play once it lands.
    var keysForTheViewer: [ViewerKey] = []
    /// What the input so far asks of the app's controllers, in order, until it takes them (`takeCommands`).
    var commands: [AppCommand] = []
    /// Where a pull taken over from the details began, in the drag's translation (zero for any other pull).
    private var pullStart = Point.zero
    /// Down this far past hidden details, the drag becomes a pull, points.
    static let infoHandOver = 12.0
    /// Two fingers at fit decide once they have spread or closed this much (a share of their distance)…
    static let pinchDecision = 0.02
    /// …or turned this much, radians (20°): then they twist the photo, and it turns by what is past this.
    static let twistStart = 20 * Double.pi / 180
    /// A pinch on the Library tab's views changes the view when its scale is this far from 1.
    static let viewPinch = 0.2
    /// A drag this far from the grid's left edge, px, going right, is a swipe back.
    static let backEdge = 24.0

    /// The app's clock: a double tap's time-out runs on it between events.
    private let clock: FrameClock
    /// The last event's time and the clock's then: event times (server ms) and the clock have different origins.
    private var eventClock: (event: Double, clock: Double)?

    init(navigator: PhotoNavigator, clock: FrameClock) {
        (self.navigator, self.clock) = (navigator, clock)
        // The long press first: a second finger ends a lift before the pinch begins.
        for recognizer: Recognizer in [longPress, pinch, pan, immediateTap, viewerTap, viewerDoubleTap] { gestures.add(recognizer) }
        viewerTap.requireToFail(viewerDoubleTap)
        pan.onChange = { [unowned self] in drag($0) }
        pinch.onChange = { [unowned self] in pinched($0) }
        longPress.onChange = { [unowned self] in longPressed($0) }
        immediateTap.onRecognized = { [unowned self] in tapped(at: $0.location) }
        viewerTap.onRecognized = { [unowned self] in viewerTapped(at: $0.location) }
        viewerDoubleTap.onRecognized = { [unowned self] in doubleTapped(at: $0.location) }
    }

    /// A tap waits to see if a second one comes, or the date scrubber to fade: time must keep moving.
    var isWaiting: Bool { gestures.isWaiting || dates.isLingering }
    /// What the input handled since the last call asks of the app, in order.
    func takeCommands() -> [AppCommand] {
        defer { commands = [] }
        return commands
    }
    /// Fingers (or the mouse button) are down: on the content, or on the date scrubber's handle.
    var isTouching: Bool { gestures.pointers.count > 0 || dates.isDragging }
    /// Lets the recognizers' time-outs happen, up to the clock's time (on the events' clock).
    func advanceToNow() {
        if let eventClock { gestures.advance(to: eventClock.event + clock.now - eventClock.clock) }
        dates.tick(at: clock.now)
    }

    /// The newest pointer or touch event's time, on its source's clock.
    var lastInputTime: Seconds? { eventClock?.event }

    /// The drag under way, if any: its translation and velocity, for the trace and the overlay.
    var activeDrag: PanRecognizer? { [.began, .changed].contains(pan.state) ? pan : nil }

    // MARK: Pointers

    /// A pointer, touch, touchpad or wheel event (points, seconds) the overlays and the app left.
    func handle(_ event: InputEvent) {
        if gesture == nil, case .taken = dates.handle(event, at: clock.now) { return }
        switch event {
        case .scroll(let dx, let dy, let unit, let at, let modifiers):
            scrolled(dx: dx, dy: dy, unit: unit, at: at, control: modifiers.contains(.control))
        case .pointerDown(let at, 1, let time): pointer(PointerEvent(.down, at: at, time: time))
        case .pointerMove(let to, let time): pointer(PointerEvent(.move, at: to, time: time))
        case .pointerUp(let at, 1, let time): pointer(PointerEvent(.up, at: at, time: time))
        case .pointerDown, .pointerUp, .key: break   // other buttons; keys come by their action (`key`)
        case .touch(let phase, let id, let at, let time):
            // Fingers are pointers 1, 2, …; the mouse is pointer 0.
            pointer(PointerEvent(phase.pointerPhase, id: id + 1, at: at, time: time))
        case .touchpadPinch(let phase, let scale, let at, let time):
            // Two virtual fingers (pointers −1 and −2) either side of the pointer: the pinch
            // recognizer takes a touchpad pinch as it takes one on the screen.
            let spread = Interaction.touchpadFingerSpread * scale
            for (id, dx) in [(-1, -spread), (-2, spread)] {
                pointer(PointerEvent(phase.pointerPhase, id: id, at: Point(x: at.x + dx, y: at.y), time: time))
            }
        }
    }

    /// A touchpad pinch's virtual fingers start this far either side of the pointer, px.
    static let touchpadFingerSpread = 100.0

    private func pointer(_ event: PointerEvent) {
        eventClock = (event.time, clock.now)
        handle(event)
    }

    /// A pointer event: the first press and the last lift are events of their own, before and after
    /// the recognizers see them.
    func handle(_ event: PointerEvent) {
        let first = event.phase == .down && gestures.pointers.count == 0
        if first { pressed(at: event.location) }
        gestures.handle(event)
        if (event.phase == .up || event.phase == .cancel) && gestures.pointers.count == 0 { lifted() }
    }

    /// The first finger (or the mouse button) went down.
    private func pressed(at point: Point) {
        // As on a phone, a press on a coasting grid only stops it: that press opens nothing. Columns still
        // settling settle at once.
        let settling = grid.isChangingColumns
        grid.finishColumnChange()
        pressStoppedScrolling = navigator.isGridActive && (grid.scrolling.catchMotion() || settling)
        if !pressStoppedScrolling, grid.contents == .photos, grid.bars.view(at: point) == nil, let index = grid.index(at: point) { navigator.pressed(onCell: index) }
        // A press on a clip's scrub bar takes the clip to its time there, and a drag along it follows.
        if let viewer = navigator.viewer, !navigator.isTransitioning, viewer.button(at: point) == .scrubBar {
            gesture = .scrubbing
            navigator.scrub(to: viewer.bar.clipControls.fraction(at: point))
        }
        // A press on a photo in the air takes it: from here the finger carries it as a pull.
        if transitions.take(at: point) {
            gesture = .pulling
            holdsTakenPhoto = true
        }
    }

    /// The last finger lifted. A photo taken in the air and let go without a drag (a tap on it, a
    /// double click on a thumbnail) opens, from where it is.
    private func lifted() {
        navigator.pressEnded()
        if gesture == .scrubbing { gesture = nil }
        if gesture == .pulling, holdsTakenPhoto {
            transitions.letGo(toward: .viewer)
            gesture = nil
        }
        holdsTakenPhoto = false
    }

    /// The one drag: in the grid it scrolls; in the viewer, what it does is decided at its start
    /// (page, pan a zoomed photo, or pull the photo out); a photo taken in the air follows it.
    private func drag(_ pan: PanRecognizer) {
        switch pan.state {
        case .began: dragBegan(pan)
        case .changed: dragChanged(translation: pan.translation)
        case .ended, .cancelled: dragEnded(pan)
        default: return
        }
    }

    /// A drag begins: what it moves (the grid, the pages, the photo, its details, or the photo out of the viewer).
    private func dragBegan(_ pan: PanRecognizer) {
        let t = pan.translation
        if gesture == .pulling { return transitions.follow(translation: t) }   // taken in the air
        guard gesture == nil else { return }   // a pinch has the photo
        if navigator.isGridActive, pan.startLocation.x <= Interaction.backEdge, t.x > abs(t.y) {
            gesture = .swipingBack
            return
        }
        if navigator.isGridActive {
            gesture = .scrollingGrid
            grid.scrolling.beginDrag()
            grid.scrolling.drag(translation: t.y)
            return
        }
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        switch viewer.role(forDragStartingWith: t) {
        case .paging:
            gesture = .paging
            viewer.beginPaging()
            viewer.dragPaging(translation: t.x)
        case .panning:
            gesture = .panningPhoto
            viewer.beginPan()
            viewer.pan(translation: t)
        case .dismissing:
            guard transitions.pull() else { return }
            gesture = .pulling
            transitions.follow(translation: t)
        case .info:
            gesture = .revealingInfo
            viewer.beginInfoDrag()
            viewer.dragInfo(translationY: t.y)
        case .none:
            break
        }
    }

    private func dragChanged(translation t: Point) {
        holdsTakenPhoto = false
        switch gesture {
        case .scrollingGrid?: grid.scrolling.drag(translation: t.y)
        case .paging?: navigator.viewer?.dragPaging(translation: t.x)
        case .panningPhoto?: navigator.viewer?.pan(translation: t)
        case .pulling?: transitions.follow(translation: t - pullStart)
        case .scrubbing?:
            if let viewer = navigator.viewer { navigator.scrub(to: viewer.bar.clipControls.fraction(at: pan.startLocation + t)) }
        case .revealingInfo?:
            guard let viewer = navigator.viewer else { break }
            // Down past hidden, the photo is pulled from there.
            let beyond = viewer.dragInfo(translationY: t.y)
            if beyond > Interaction.infoHandOver, transitions.pull() {
                viewer.setInfo(shown: false)
                gesture = .pulling
                pullStart = Point(x: t.x, y: t.y - beyond)
                transitions.follow(translation: t - pullStart)
            }
        default: break
        }
    }

    /// The finger lifts (or the touch sequence is cancelled): what it moved goes on with its speed, or back.
    private func dragEnded(_ pan: PanRecognizer) {
        let t = pan.translation
        let ended = pan.state == .ended
        let velocity = ended ? pan.velocity : .zero
        defer { pullStart = .zero }
        switch gesture {
        case .scrollingGrid?: grid.scrolling.endDrag(velocity: velocity.y)
        case .swipingBack?:
            if ended, t.x > grid.size.width * 0.25 || velocity.x > 300, grid.bars.showsBackButton { commands.append(.back) }
        case .paging?: navigator.viewer?.endPaging(velocity: velocity.x)
        case .panningPhoto?: navigator.viewer?.endPan(velocity: velocity)
        case .revealingInfo?: navigator.viewer?.endInfoDrag(velocityY: velocity.y)
        case .pulling?:
            if ended {
                transitions.letGo(translation: t - pullStart, velocity: velocity)
            } else if gestures.pointers.count > 1 {
                return   // a second finger: the pinch takes the photo on (whichever recognizer hears first)
            } else {
                transitions.cancelHold()   // a cancelled touch sequence springs back: safer than closing
            }
        default: return   // a pinch took over from the drag: it has the photo now
        }
        gesture = nil
        holdsTakenPhoto = false
    }

    /// A press held still: the photo under it is lifted (unless the press already does something: it took
    /// a photo in the air, or a pinch has begun), then follows the finger out of the window.
    private func longPressed(_ press: LongPressRecognizer) {
        switch press.state {
        case .began:
            guard gesture == nil, !holdsTakenPhoto, !pressStoppedScrolling else { return }
            // On a Live Photo in the viewer, as on a phone, a press held plays its movie.
            if navigator.viewer != nil, navigator.viewer?.button(at: press.location) == nil, navigator.holdLive(true) {
                gesture = .holdingLive
                return
            }
            guard let lifted = navigator.liftable(at: press.location) else { return }
            gesture = .draggingOut
            commands.append(.dragOut(.lift(index: lifted.index, origin: lifted.origin, at: press.location)))
        case .changed where gesture == .draggingOut:
            commands.append(.dragOut(.move(to: press.location)))
        case .ended where gesture == .holdingLive, .cancelled where gesture == .holdingLive:
            _ = navigator.holdLive(false)
            gesture = nil
        case .ended where gesture == .draggingOut, .cancelled where gesture == .draggingOut:
            commands.append(.dragOut(.end(at: press.location, cancelled: press.state == .cancelled)))
            gesture = nil
        default:
            break
        }
    }

    /// Two fingers. Zoomed, they zoom; at fit, their first move past `pinchDecision` decides: apart
    /// zooms, together closes, and turned by `twistStart` first, they twist the photo (snapping to a
    /// quarter). A second finger put down during a pull (or on a photo taken in the air) takes the
    /// photo on from where it is, as a pinch that closes.
    private func pinched(_ pinch: PinchRecognizer) {
        if gesture == .pinchingGrid || navigator.isGridActive && pinch.state == .began { return pinchedGrid(pinch) }
        guard let viewer = navigator.viewer else { return }
        switch pinch.state {
        case .began:
            switch gesture {
            case .pulling?:
                holdsTakenPhoto = false
                transitions.holdWithTwoFingers()
                gesture = .pinchClosing
            case nil, .paging?, .panningPhoto?:
                guard !navigator.isTransitioning else { return }
                if gesture == .paging { viewer.endPaging(velocity: 0) }
                if gesture == .panningPhoto { viewer.endPan(velocity: .zero) }
                if viewer.isZoomed {
                    viewer.beginPinch(center: pinch.startCenter)
                    gesture = .pinchZooming
                } else {
                    gesture = .pinchPending
                }
            default:
                return
            }
        case .changed:
            if gesture == .pinchPending, abs(pinch.rotation) > Interaction.twistStart, !navigator.isTransitioning, viewer.image != nil {
                viewer.beginTwist()
                gesture = .twisting
            }
            if gesture == .pinchPending, abs(pinch.scale - 1) > Interaction.pinchDecision {
                if pinch.scale < 1, transitions.pull() {
                    transitions.holdWithTwoFingers()
                    gesture = .pinchClosing
                } else {
                    viewer.beginPinch(center: pinch.startCenter)
                    gesture = .pinchZooming
                }
            }
            switch gesture {
            case .pinchZooming?: viewer.pinch(scale: pinch.scale, center: pinch.center)
            case .pinchClosing?: transitions.follow(pinchScale: pinch.scale, center: pinch.center, start: pinch.startCenter)
            case .twisting?: viewer.twist(angle: Interaction.twistAngle(pinch.rotation))
            default: break
            }
        case .ended, .cancelled:
            switch gesture {
            case .twisting?: twistEnded(at: pinch.state == .ended ? Interaction.twistAngle(pinch.rotation) : 0)
            case .pinchZooming?: viewer.endPinch(center: pinch.center)
            case .pinchClosing?:
                if pinch.state == .ended {
                    transitions.letGo(pinchScale: pinch.scale, center: pinch.center, start: pinch.startCenter,
                                       scaleVelocity: pinch.scaleVelocity, centerVelocity: pinch.velocity)
                } else {
                    transitions.cancelHold()   // a cancelled pinch springs back
                }
            case .pinchPending?: break
            default: return
            }
            gesture = nil
        default:
            return
        }
    }

    /// The fingers let go with the photo turned `angle` radians: it snaps to the nearest quarter (none: back straight).
    private func twistEnded(at angle: Double) {
        let quarters = Int((angle / (Double.pi / 2)).rounded())
        guard quarters != 0, !navigator.isTransitioning, navigator.viewer?.image != nil else { navigator.viewer?.untwist(); return }
        commands.append(.turn(quarters: max(-2, min(2, quarters)), from: angle))
    }

    /// The photo's angle for the fingers' rotation: what is past `twistStart` (it does not jump when the twist begins).
    static func twistAngle(_ rotation: Double) -> Double {
        rotation > 0 ? max(0, rotation - twistStart) : min(0, rotation + twistStart)
    }

    /// Two fingers on the grid: its columns follow them (a drag that began with one finger stops where it is). On
    /// cards, and past the most columns, they change the view (`viewPinched`).
    private func pinchedGrid(_ pinch: PinchRecognizer) {
        switch pinch.state {
        case .began:
            if gesture == .scrollingGrid { grid.scrolling.endDrag(velocity: 0) }
            pinchBeganAtMostColumns = grid.layout.columns == GridLayout.columnRange(forWidth: grid.size.width).upperBound
            grid.beginColumnChange(at: pinch.startCenter)
            gesture = .pinchingGrid
        case .changed:
            grid.changeColumns(scale: pinch.scale, at: pinch.center)
        case .ended, .cancelled:
            grid.endColumnChange(scaleVelocity: pinch.state == .ended ? pinch.scaleVelocity : 0)
            if pinch.state == .ended { viewPinched(scale: pinch.scale, at: pinch.center) }
            gesture = nil
        default:
            break
        }
    }

    /// A pinch on the Library tab's views: apart on a card zooms into it, together goes back (or a view coarser); on
    /// All Photos, together past the most columns goes to Days.
    private func viewPinched(scale: Double, at point: Point) {
        guard grid.bars.showsViewPicker || grid.shownView != nil, abs(scale - 1) > Interaction.viewPinch else { return }
        if let view = grid.shownView {
            if scale > 1, let index = grid.index(at: point) { commands.append(.openCard(index, at: point)) }
            if scale < 1 { commands.append(grid.bars.showsBackButton ? .back : view.coarser.map { .showView($0) } ?? .back) }
        } else if scale < 1, pinchBeganAtMostColumns {
            commands.append(.showView(.days))
        }
    }

    // MARK: Taps

    /// At once: a tap opens a cell in the grid; in the viewer (even while the photo zooms in) the
    /// back button closes.
    private func tapped(at point: Point) {
        if navigator.isGridActive, let view = grid.bars.view(at: point) {
            commands.append(.showView(view))   // the picker floats over the cells
        } else if navigator.isGridActive, !pressStoppedScrolling, let index = grid.index(at: point) {
            switch grid.contents {
            case .covers: commands.append(.openAlbum(index))
            case .cards: commands.append(.openCard(index, at: point))
            case .photos: navigator.open(index)
            }
        } else if navigator.isGridActive, grid.bars.isBackButton(at: point) {
            commands.append(.back)
        } else if navigator.isGridActive, let section = grid.header(at: point) {
            commands.append(.chooseDate(near: grid.layout.photos(inSection: section).lowerBound))   // a day's header names its date
        } else if navigator.isGridActive, let tab = grid.bars.tab(at: point) {
            // The shown tab again: out of an album (or a view tapped into), else to where the grid opened.
            switch (tab != grid.bars.shownTab, grid.bars.showsBackButton) {
            case (true, _): commands.append(.showTab(tab))
            case (false, true): commands.append(.back)
            case (false, false): grid.glideToNewest()
            }
        } else if let button = navigator.viewer?.button(at: point) {
            switch button {
            case .back: navigator.close()
            case .favorite: navigator.toggleFavorite()
            case .trash: commands.append(.trash)
            case .more: commands.append(.menu(at: nil))
            case .play: if !navigator.isTransitioning { _ = navigator.togglePlayback(at: clock.now) }
            case .scrubBar: break   // the press took it there
            }
        }
    }

    /// A single tap in the viewer (no second tap came): the bars fade out, or back in.
    private func viewerTapped(at point: Point) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, viewer.button(at: point) == nil else { return }
        viewer.toggleBars()
    }

    /// A double tap: to 3× fit centred on it, or back to fit.
    private func doubleTapped(at point: Point) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, viewer.button(at: point) == nil else { return }
        viewer.doubleTap(at: point)
    }

    // MARK: Wheel

    /// In the grid it scrolls (a notch glides, a touchpad follows at once). In the viewer a wheel's
    /// notches, or anything with Ctrl, zoom about the pointer, as in most photo viewers; a touchpad's
    /// smooth scrolling (and a sideways wheel) moves a zoomed photo. In the air it does nothing.
    private func scrolled(dx: Double, dy: Double, unit: ScrollUnit, at point: Point, control: Bool) {
        if navigator.isGridActive, control { return controlScrolledGrid(dy: dy, at: point) }
        guard let viewer = navigator.viewer else { return grid.scroll(units: dy, gliding: unit == .notches) }
        guard !navigator.isTransitioning else { return }
        if control || unit == .notches && dx == 0 {
            viewer.wheelZoom(notches: dy, at: point)
        } else {
            viewer.scroll(dx: dx, dy: dy, gliding: unit == .notches)
        }
    }

    /// Ctrl+wheel on the grid: a notch down is a column more (smaller photos), up one fewer, about the
    /// pointer; a touchpad's smooth units add up to notches.
    private func controlScrolledGrid(dy: Double, at point: Point) {
        controlScrollUnits += dy
        let notches = Int(controlScrollUnits.rounded(.towardZero))
        guard notches != 0 else { return }
        controlScrollUnits -= Double(notches)
        grid.stepColumns(by: notches, at: point)
    }
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
