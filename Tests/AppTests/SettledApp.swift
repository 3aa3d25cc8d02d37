import Library
import Animation
import Input
import SceneGraph
import Viewer
import Geometry
import TestSupport
import Transitions
import SystemPackage
@testable import App

/// The viewer on the bundled photos (or `folders`), on a manual clock, with its first screen settled.
func settledApp(size: Size, folders: [String] = [TestImages.bundledFolder], clock: ManualClock,
                pixelScale: Double = 1, motion: MotionStyle = .fluid, reduceMotion: Bool = false) -> PhotoViewerApp {
    let app = PhotoViewerApp(photos: folders.flatMap { PhotoLibrary.photos(inFolder: FilePath($0)).photos }, size: size, emptyMessage: "",
                             queue: DecodeQueue(decode: TestDecoders.memoizing), clock: clock, pixelScale: pixelScale,
                             motion: motion)
    app.reducesMotion = reduceMotion
    app.settle(stepping: clock)
    return app
}

extension PhotoViewerApp {
    /// The window frame of photo `index`'s grid cell.
    func cellFrame(_ index: Int) -> Rect { grid.cell(at: index).convert(grid.cell(at: index).bounds, to: nil) }
}

extension PhotoViewerApp {
    /// How many visible nodes show `photo` (every node up to the root shown, alpha above zero): the
    /// phantom-image rule wants exactly one on every frame.
    func timesShown(_ photo: String) -> Int {
        func count(_ node: Node, _ alpha: Double) -> Int {
            let a = alpha * node.alpha
            guard !node.isHidden, a > 0 else { return 0 }
            return (node.contentsName == photo && node.image != nil ? 1 : 0) + node.children.reduce(0) { $0 + count($1, a) }
        }
        return count(root, 1)
    }

    /// How much of `photo` the screen shows in all: the effective alphas of the visible nodes that
    /// show it, summed. The phantom rule in a cross-fade: one, though two nodes share it.
    func opacityShown(_ photo: String) -> Double {
        func sum(_ node: Node, _ alpha: Double) -> Double {
            let a = alpha * node.alpha
            guard !node.isHidden, a > 0 else { return 0 }
            return (node.contentsName == photo && node.image != nil ? a : 0) + node.children.reduce(0) { $0 + sum($1, a) }
        }
        return sum(root, 1)
    }
}

/// The app with a photo open in the viewer and settled, driven like a user: the mouse (pointer 0)
/// and fingers, with times on the app's manual clock, one frame per step.
final class OpenViewer {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp
    let index: Int

    init(index: Int, size: Size, folders: [String] = [TestImages.bundledFolder], pixelScale: Double = 1,
         motion: MotionStyle = .fluid, reduceMotion: Bool = false) {
        self.index = index
        app = settledApp(size: size, folders: folders, clock: clock, pixelScale: pixelScale, motion: motion,
                         reduceMotion: reduceMotion)
        let c = app.cellFrame(index).center
        _ = app.handle(.pointerDown(at: c, button: 1, time: now))
        _ = app.handle(.pointerUp(at: c, button: 1, time: now))
        app.settle(stepping: clock)
    }

    var now: Seconds { clock.now }
    var viewer: PhotoViewerScreen { app.viewer! }
    var name: String { app.photos[index].name }
    /// The open photo's frame in the window.
    var photoFrame: Rect { viewer.photoFrame }
    var copy: Node? { app.root.descendant(named: "transitionImage") }

    func frames(_ n: Int) {
        for _ in 0..<n {
            clock.advanceFrame()
            app.tick()
            app.waitForLoads()
        }
    }

    func settle() { app.settle(stepping: clock) }

    func press(_ p: Point) { _ = app.handle(.pointerDown(at: p, button: 1, time: now)) }
    func move(_ p: Point) { _ = app.handle(.pointerMove(to: p, time: now)) }
    func lift(_ p: Point) { _ = app.handle(.pointerUp(at: p, button: 1, time: now)) }

    func tap(_ p: Point) {
        press(p)
        frames(3)
        lift(p)
    }

    func doubleTap(_ p: Point) {
        tap(p)
        frames(6)
        tap(p)
    }

    /// Presses at `from`, moves in `steps` equal steps (a frame each) to `to`; lifts unless `hold`.
    func drag(from: Point, to: Point, steps: Int = 10, hold: Bool = false) {
        press(from)
        for i in 1...steps {
            frames(1)
            move(from + (to - from) * (Double(i) / Double(steps)))
        }
        if !hold { lift(to) }
    }

    /// Two fingers `spread` px either side of `center`, horizontally; `scales` are the pinch's
    /// scale on successive frames. Lifts both unless `hold`.
    func pinch(about center: Point, scales: [Double], spread: Double = 100, hold: Bool = false) {
        func fingers(_ phase: TouchPhase, _ s: Double) {
            _ = app.handle(.touch(phase, id: 0, at: Point(x: center.x - spread * s, y: center.y), time: now))
            _ = app.handle(.touch(phase, id: 1, at: Point(x: center.x + spread * s, y: center.y), time: now))
        }
        fingers(.begin, 1)
        for s in scales {
            frames(1)
            fingers(.update, s)
        }
        if !hold { fingers(.end, scales.last ?? 1) }
    }

    /// The pinch's scales from `from` to `to` in `n` frames.
    static func ramp(_ from: Double, _ to: Double, _ n: Int) -> [Double] {
        (1...n).map { from + (to - from) * Double($0) / Double(n) }
    }

    /// The photo point (in fit-frame units, 0…1 across the photo) shown at window point `p`.
    func photoPoint(at p: Point) -> Point {
        let f = photoFrame
        return Point(x: (p.x - f.minX) / f.width, y: (p.y - f.minY) / f.height)
    }
}
