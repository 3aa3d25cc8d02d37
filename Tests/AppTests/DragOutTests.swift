import Animation
import Geometry
import Input
import SceneGraph
import Testing
import TestSupport
@testable import App

/// A long press lifts a photo to drag it into another program: a small copy of it follows the finger,
/// flies back where it came from if let go in the window, and fades if let go outside it (where the
/// window system has taken the drag on). A press that moves at once still scrolls, pulls or pages.
@Suite struct DragOutTests {
    let clock = ManualClock(fps: 60)
    let app: PhotoViewerApp

    init() {
        app = settledApp(size: Size(width: 400, height: 800), folders: Array(repeating: TestImages.bundledFolder, count: 4), clock: clock)
    }

    func frames(_ n: Int) {
        for _ in 0..<n {
            clock.advanceFrame()
            app.tick()
        }
    }

    func down(_ p: Point) { _ = app.handle(.touch(.begin, id: 0, at: p, time: clock.now)) }
    func move(_ p: Point) { _ = app.handle(.touch(.update, id: 0, at: p, time: clock.now)) }
    func up(_ p: Point) { _ = app.handle(.touch(.end, id: 0, at: p, time: clock.now)) }

    var copy: Node? { app.root.descendant(named: "dragOut") }

    @Test func aLongPressOnACellLiftsItsPhotoAndLetGoOutsideItFades() throws {
        let cell = app.cellFrame(5)
        down(cell.center)
        frames(20)   // 0.33 s: not yet
        #expect(app.draggedOutPhoto == nil && copy == nil)
        while copy == nil, clock.now < 1 { frames(1) }
        #expect(app.draggedOutPhoto == app.photos[5])
        let lifted = try #require(copy)
        let start = lifted.frame
        #expect(abs(start.midX - cell.midX) < 3 && abs(start.width - cell.width) < 3, "it starts from its cell: \(start), \(cell)")
        let offset = app.grid.scrollOffset
        for x in stride(from: cell.midX, through: 460, by: 20) + [460] {
            move(Point(x: x, y: cell.midY))
            frames(1)
        }
        frames(30)
        #expect(abs(lifted.frame.size.width - 120) < 0.5 && abs(lifted.frame.midX - (460 - 24)) < 0.5, "at the finger: \(lifted.frame)")
        #expect(app.grid.scrollOffset == offset && app.viewer == nil, "the drag neither scrolls nor opens")
        up(Point(x: 460, y: cell.midY))
        #expect(app.draggedOutPhoto == nil)
        app.settle(stepping: clock)
        #expect(copy == nil && app.viewer == nil, "outside the window the copy fades")
    }

    @Test func letGoInTheWindowTheCopyFliesBackToItsCell() throws {
        let cell = app.cellFrame(2)
        down(cell.center)
        frames(32)
        move(Point(x: 200, y: 500))
        frames(20)
        up(Point(x: 200, y: 500))
        frames(4)
        let copy = try #require(copy)
        #expect(copy.frame.midY < 500, "on its way back: \(copy.frame)")
        app.settle(stepping: clock)
        #expect(self.copy == nil && app.viewer == nil && app.draggedOutPhoto == nil)
    }

    @Test func inTheViewerTheOpenPhotoIsLiftedAndAQuickDragStillPulls() throws {
        _ = app.handle(.key(name: "Return", modifiers: []))
        app.settle(stepping: clock)
        let photo = try #require(app.viewer).photoFrame
        // A drag at once pulls the photo, as ever.
        down(photo.center)
        for i in 1...10 { frames(1); move(photo.center + Point(x: 0, y: Double(i) * 20)) }
        #expect(app.interaction.phase == .pulling && copy == nil)
        for i in (0...9).reversed() { frames(1); move(photo.center + Point(x: 0, y: Double(i) * 20)) }
        up(photo.center)
        app.settle(stepping: clock)
        #expect(app.viewer != nil, "let go going up, it springs back")
        // Held still, it is lifted instead, and carried out.
        down(photo.center)
        frames(32)
        #expect(app.draggedOutPhoto == app.photos[0] && app.interaction.phase == .draggingOut)
        for i in 1...10 { frames(1); move(photo.center + Point(x: Double(i) * 30, y: Double(i) * 50)) }
        #expect(app.viewer.map { $0.photoFrame == photo } == true, "the photo stays put; its copy moves")
        up(photo.center + Point(x: 300, y: 500))
        app.settle(stepping: clock)
        #expect(copy == nil && app.viewer != nil)
    }

    @Test func aSecondFingerPutsTheCopyBackAndPinches() throws {
        let cell = app.cellFrame(1)
        down(cell.center)
        frames(32)
        #expect(copy != nil)
        _ = app.handle(.touch(.begin, id: 1, at: cell.center + Point(x: 80, y: 0), time: clock.now))
        #expect(app.draggedOutPhoto == nil)
        app.settle(stepping: clock)
        #expect(copy == nil)
    }
}
