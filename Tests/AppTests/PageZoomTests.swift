import Library
import Geometry
import Imaging
import Input
import Testing
@testable import App

/// Zoom within a page (issue 5, point 3): double tap, pinch, Ctrl+wheel, keys, pan, and a sharper
/// decode. The photo is Dragonfly_by_Bolly.jpg (4224×3168, 4:3) in an 800×600 window: at fit it
/// fills the window exactly.
@Suite struct PageZoomTests {
    let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))
    var middle: Point { Point(x: 400, y: 300) }

    @Test func thePhotoIsTheDragonflyAtFit() {
        #expect(v.name == "Dragonfly_by_Bolly.jpg")
        #expect(v.viewer.zoomScale == 1)
        #expect(v.photoFrame == Rect(x: 0, y: 0, width: 800, height: 600))
    }

    @Test func doubleTapZoomsToThreeTimesCentredOnTheTapAndBack() {
        let tap = Point(x: 300, y: 250)
        let under = v.photoPoint(at: tap)
        v.doubleTap(tap)
        v.settle()
        #expect(v.viewer.zoomScale == 3)
        let shown = v.photoPoint(at: middle)
        #expect((shown - under).magnitude < 1e-6, "the tapped point is now in the middle: \(shown) vs \(under)")
        #expect(v.viewer.barsVisible, "a double tap does not toggle the bars")
        v.doubleTap(middle)
        v.settle()
        #expect(v.viewer.zoomScale == 1)
        #expect(v.photoFrame == Rect(x: 0, y: 0, width: 800, height: 600))
    }

    @Test func aSingleTapWaitsForTheDoubleTapToFailThenTogglesTheBars() {
        v.tap(middle)
        v.frames(1)
        #expect(v.viewer.barsVisible, "not yet: a second tap may come")
        #expect(v.app.isAnimating, "the loop keeps ticking while a tap waits")
        v.frames(20)   // past the 0.3 s double-tap interval, then the 0.25 s fade
        v.settle()
        #expect(!v.viewer.barsVisible)
        #expect(v.viewer.zoomScale == 1)
    }

    @Test func aDoubleTapAtTheEdgeStaysInsideThePhoto() {
        v.doubleTap(Point(x: 10, y: 10))
        v.settle()
        #expect(v.photoFrame.minX == 0 && v.photoFrame.minY == 0, "the corner, not black beyond it")
        #expect(v.photoFrame.size == Size(width: 2400, height: 1800))
    }

    @Test func pinchZoomsAboutTheFingersAndKeepsThatPointUnderThem() {
        let center = Point(x: 500, y: 200)
        let under = v.photoPoint(at: center)
        v.pinch(about: center, scales: OpenViewer.ramp(1, 2, 12))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 2) < 1e-9)
        #expect((v.photoPoint(at: center) - under).magnitude < 1e-6)
        #expect(v.app.viewer != nil, "spreading never closes")
    }

    @Test func pinchPastTheMaximumRubberBandsThenSpringsBack() throws {
        let levels = try #require(v.viewer.zoomLevels)
        let target = levels.maximum * 2
        v.pinch(about: middle, scales: OpenViewer.ramp(1, target, 20), hold: true)
        let stretched = v.viewer.zoomScale
        #expect(stretched > levels.maximum && stretched < target, "resists past the limit: \(stretched)")
        #expect(v.app.isPinchZooming, "the window draws these frames for speed")
        v.pinch(about: middle, scales: [], spread: 100 * target)   // lift
        #expect(!v.app.isPinchZooming)
        var scales: [Double] = []
        while v.app.isAnimating { v.frames(1); scales.append(v.viewer.zoomScale) }
        #expect(abs(v.viewer.zoomScale - levels.maximum) < 1e-9)
        #expect(zip(scales, scales.dropFirst()).allSatisfy { $0 >= $1 - 1e-9 }, "springs straight back, critically damped")
    }

    @Test func pinchBelowFitWhenZoomedRubberBandsAndSpringsBackToFit() {
        v.doubleTap(middle)
        v.settle()
        v.pinch(about: middle, scales: OpenViewer.ramp(1, 0.15, 15), hold: true)
        #expect(v.viewer.zoomScale < 1 && v.viewer.zoomScale > 0.5, "below fit, resisting: \(v.viewer.zoomScale)")
        v.pinch(about: middle, scales: [], spread: 15)
        v.settle()
        #expect(v.viewer.zoomScale == 1)
        #expect(v.app.viewer != nil, "a pinch that began zoomed does not close")
        #expect(v.photoFrame == Rect(x: 0, y: 0, width: 800, height: 600))
    }

    @Test func controlWheelZoomsAboutThePointer() {
        let pointer = Point(x: 620, y: 130)
        let under = v.photoPoint(at: pointer)
        _ = v.app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: pointer, modifiers: .control))
        _ = v.app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: pointer, modifiers: .control))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 1.25 * 1.25) < 1e-9, "two notches away from the user: 1.25² ×")
        #expect((v.photoPoint(at: pointer) - under).magnitude < 1e-6)
        _ = v.app.handle(.scroll(dx: 0, dy: 3, unit: .notches, at: pointer, modifiers: .control))
        v.settle()
        #expect(v.viewer.zoomScale == 1, "toward the user: back out, not past fit")
    }

    @Test func keysStepInAndOutAndGoToFitAndOneHundredPercent() throws {
        func key(_ name: String) { _ = v.app.handle(.key(name: name, modifiers: [])); v.settle() }
        key("plus")
        #expect(abs(v.viewer.zoomScale - 1.5) < 1e-9)
        key("plus")
        #expect(abs(v.viewer.zoomScale - 2.25) < 1e-9)
        key("minus")
        #expect(abs(v.viewer.zoomScale - 1.5) < 1e-9)
        key("1")
        let levels = try #require(v.viewer.zoomLevels)
        #expect(abs(v.viewer.zoomScale - 4224.0 / 800) < 1e-9, "one photo pixel per screen pixel")
        #expect(abs(levels.actualSize - 4224.0 / 800) < 1e-9, "the full size came with the sharper decode")
        #expect(abs(v.photoFrame.width - 4224) < 1e-6)
        key("0")
        #expect(v.viewer.zoomScale == 1)
    }

    @Test func zoomingDecodesASharperImage() throws {
        let before = try #require(v.viewer.image)
        key3x()
        let after = try #require(v.viewer.image)
        #expect(after.width > before.width, "\(before.width) → \(after.width)")
        #expect(after.width >= 2400, "as sharp as the photo is shown: \(after.width) px for 2400 px")
    }

    private func key3x() {
        v.doubleTap(middle)
        v.settle()
    }

    @Test func aDragOnAZoomedPhotoPansItAndItCoasts() {
        key3x()
        let start = v.photoFrame.origin
        v.drag(from: Point(x: 400, y: 300), to: Point(x: 300, y: 250), steps: 5, hold: true)
        let held = v.photoFrame.origin
        #expect(abs(held.x - (start.x - 100)) < 1e-6 && abs(held.y - (start.y - 50)) < 1e-6, "follows the finger")
        v.lift(Point(x: 300, y: 250))
        v.frames(10)
        #expect(v.photoFrame.minX < held.x - 20, "momentum carries it on")
        v.settle()
        #expect(v.app.viewer != nil && v.viewer.index == 4, "a pan neither pages nor closes")
    }

    @Test func panningPastTheEdgeRubberBandsAndBouncesBack() {
        v.doubleTap(Point(x: 400, y: 10))   // zoomed, against the top edge
        v.settle()
        #expect(v.photoFrame.minY == 0)
        v.drag(from: Point(x: 400, y: 200), to: Point(x: 400, y: 500), steps: 6, hold: true)
        let edgeY = v.photoFrame.minY
        #expect(edgeY > 50 && edgeY < 300, "pulled 300 px past the edge, it moves less: \(edgeY)")
        v.lift(Point(x: 400, y: 500))
        v.settle()
        #expect(v.photoFrame.minY == 0, "back to the edge")
        #expect(v.app.viewer != nil, "a zoomed photo pulled down does not close")
    }

    @Test func downwardDragOnAZoomedPhotoPansInsteadOfClosing() {
        key3x()
        let y0 = v.photoFrame.minY
        v.drag(from: Point(x: 400, y: 200), to: Point(x: 400, y: 350), steps: 6)
        v.settle()
        #expect(v.app.viewer != nil)
        #expect(v.copy == nil)
        #expect(v.photoFrame.minY > y0)
    }

    @Test func atTheEdgeASidewaysDragTurnsThePageAndThePageLeftBehindReturnsToFit() {
        v.doubleTap(Point(x: 790, y: 300))   // zoom in on the right edge
        v.settle()
        #expect(abs(v.photoFrame.maxX - 800) < 1e-6, "at the right edge")
        v.drag(from: Point(x: 600, y: 300), to: Point(x: 150, y: 300), steps: 6)
        v.settle()
        #expect(v.viewer.index == 5, "paged on")
        _ = v.app.handle(.key(name: "Left", modifiers: []))
        v.settle()
        #expect(v.viewer.index == 4)
        #expect(v.viewer.zoomScale == 1, "back at fit")
    }

    @Test func awayFromTheEdgeASidewaysDragPans() {
        key3x()
        v.drag(from: Point(x: 600, y: 300), to: Point(x: 300, y: 300), steps: 6)
        v.settle()
        #expect(v.viewer.index == 4)
        #expect(v.viewer.zoomScale == 3)
    }
}

@Suite struct PageZoomResizeTests {
    @Test func resizingKeepsTheZoomAndThePointInTheMiddle() {
        let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))
        v.doubleTap(Point(x: 300, y: 250))
        v.settle()
        let under = v.photoPoint(at: Point(x: 400, y: 300))
        v.app.resize(to: Size(width: 600, height: 700))
        v.settle()
        #expect(v.viewer.zoomScale == 3)
        #expect((v.photoPoint(at: Point(x: 300, y: 350)) - under).magnitude < 1e-6, "the same point in the new middle")
        #expect(abs(v.photoFrame.width - 1800) < 1e-6, "3 × the new fit width")
    }
}

@Suite struct PageZoomTransitionTests {
    let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))

    @Test func theOpenPhotoAndItsNeighboursAreDecodedSharpAtFit() throws {
        for i in [3, 4, 5] {
            let image = try #require(v.viewer.image(of: i))
            let fit = try #require(v.viewer.fitSize(of: i))
            let full = try ImageDecoder.decode(path: v.app.photos[i].path).fullSize
            let wanted = min(fit.width, Double(full.width))   // coffee.png is smaller than the window
            #expect(Double(image.width) + 2 >= wanted, "photo \(i): \(image.width) px for \(wanted)")
        }
    }

    @Test func escapeWhenZoomedFliesFromTheZoomedPhotoIntoItsCell() throws {
        v.doubleTap(Point(x: 400, y: 300))
        v.settle()
        let zoomed = v.photoFrame
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        #expect(v.copy?.frame == zoomed, "starts where the zoomed photo is")
        var frames = 0
        while v.app.isAnimating && frames < 60 {
            v.frames(1)
            frames += 1
            #expect(v.app.timesShown(v.name) == 1, "frame \(frames)")
        }
        #expect(v.app.viewer == nil)
        #expect(v.app.grid.cell(at: 4).isHidden == false)
    }

    @Test func resizingMidZoomEndsInsideTheNewLimits() throws {
        v.doubleTap(Point(x: 700, y: 500))
        v.frames(4)
        v.app.resize(to: Size(width: 500, height: 700))
        v.settle()
        #expect(v.viewer.zoomScale == 3)
        let frame = v.photoFrame
        #expect(frame.width == 1500 && abs(frame.height - 1125) < 1e-6)
        #expect(frame.minX <= 0 && frame.maxX >= 500 && frame.minY <= 0 && frame.maxY >= 700, "no black beside a zoomed photo: \(frame)")
    }
}

@Suite struct TouchpadPinchTests {
    let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))

    func touchpadPinch(at p: Point, scales: [Double]) {
        _ = v.app.handle(.touchpadPinch(.begin, scale: 1, at: p, time: v.now))
        for s in scales {
            v.frames(1)
            _ = v.app.handle(.touchpadPinch(.update, scale: s, at: p, time: v.now))
        }
        _ = v.app.handle(.touchpadPinch(.end, scale: scales.last ?? 1, at: p, time: v.now))
    }

    @Test func aTouchpadPinchZoomsAboutThePointer() {
        let p = Point(x: 250, y: 420)
        let under = v.photoPoint(at: p)
        touchpadPinch(at: p, scales: OpenViewer.ramp(1, 2.5, 10))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 2.5) < 1e-9)
        #expect((v.photoPoint(at: p) - under).magnitude < 1e-6)
    }

    @Test func aTouchpadPinchInAtFitClosesThePhoto() {
        touchpadPinch(at: Point(x: 400, y: 300), scales: OpenViewer.ramp(1, 0.5, 10))
        v.settle()
        #expect(v.app.viewer == nil)
    }
}

@Suite struct ViewerScrollTests {
    let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))

    @Test func aMouseWheelZoomsAboutThePointerWithoutCtrl() {
        let pointer = Point(x: 200, y: 450)
        let under = v.photoPoint(at: pointer)
        _ = v.app.handle(.scroll(dx: 0, dy: -1, unit: .notches, at: pointer, modifiers: []))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 1.25) < 1e-9)
        #expect((v.photoPoint(at: pointer) - under).magnitude < 1e-6)
    }

    @Test func aTouchpadScrollMovesAZoomedPhotoAndLeavesAFitOneAlone() {
        _ = v.app.handle(.scroll(dx: 0.4, dy: 0.3, unit: .smooth, at: Point(x: 400, y: 300), modifiers: []))
        v.settle()
        #expect(v.viewer.zoomScale == 1 && v.photoFrame == Rect(x: 0, y: 0, width: 800, height: 600))
        v.doubleTap(Point(x: 400, y: 300))
        v.settle()
        let before = v.photoFrame.origin
        _ = v.app.handle(.scroll(dx: 0.5, dy: -0.25, unit: .smooth, at: Point(x: 400, y: 300), modifiers: []))
        #expect(v.photoFrame.origin == before + Point(x: -30, y: 15), "moves at once, 60 px a unit")
        #expect(v.viewer.zoomScale == 3)
    }
}

/// On a 2× screen the layout is in points and the photos are decoded for the pixels.
@Suite struct PixelScaleTests {
    let v = OpenViewer(index: 4, size: Size(width: 400, height: 300), pixelScale: 2)

    @Test func thumbnailsAndTheOpenPhotoAreSharpForTheDevicePixels() throws {
        let cell = v.app.grid.cell(at: 1)
        let thumbnail = try #require(cell.image)
        #expect(Double(min(thumbnail.width, thumbnail.height)) >= 2 * cell.bounds.width - 1, "\(thumbnail.width) px for a \(cell.bounds.width) pt cell")
        #expect(v.photoFrame == Rect(x: 0, y: 0, width: 400, height: 300), "laid out in points")
        let photo = try #require(v.viewer.image)
        #expect(photo.width >= 798, "\(photo.width) px for 400 pt at 2×")
    }

    @Test func oneHundredPercentIsOnePhotoPixelPerDevicePixel() {
        _ = v.app.handle(.key(name: "1", modifiers: []))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 4224.0 / 800) < 1e-9, "4224 px over 400 pt × 2")
        #expect(abs(v.photoFrame.width - 4224.0 / 2) < 1e-6)
    }
}

/// The window moved to an output of twice the scale, with a photo open: from then on the photo and the
/// thumbnails are decoded for the new pixels, and 100 % is a photo pixel per new device pixel.
@Suite struct PixelScaleChangeTests {
    @Test func theOpenPhotoAndTheThumbnailsFollowANewScale() throws {
        let v = OpenViewer(index: 4, size: Size(width: 400, height: 300), pixelScale: 1)
        #expect(try #require(v.viewer.image).width < 798, "decoded for 400 px at 1×")
        v.app.pixelScale = 2
        v.frames(30)
        v.app.settle(stepping: v.clock)
        let photo = try #require(v.viewer.image)
        #expect(photo.width >= 798, "\(photo.width) px for 400 pt at 2×")
        _ = v.app.handle(.key(name: "1", modifiers: []))
        v.settle()
        #expect(abs(v.viewer.zoomScale - 4224.0 / 800) < 1e-9, "4224 px over 400 pt × 2")
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        v.settle()
        let cell = v.app.grid.cell(at: 1)
        let thumbnail = try #require(cell.image)
        #expect(Double(min(thumbnail.width, thumbnail.height)) >= 2 * cell.bounds.width - 1, "\(thumbnail.width) px for a \(cell.bounds.width) pt cell")
    }
}

@Suite struct ArrowKeysOnAZoomedPhotoTests {
    @Test func arrowsMoveAZoomedPhotoAndTurnThePageFromItsEdge() {
        let v = OpenViewer(index: 4, size: Size(width: 800, height: 600))
        func key(_ name: String) { _ = v.app.handle(.key(name: name, modifiers: [])); v.settle() }
        v.doubleTap(Point(x: 400, y: 300))
        v.settle()
        let start = v.photoFrame.origin
        key("Right")
        key("Up")
        #expect(v.photoFrame.origin == start + Point(x: -60, y: 60), "the view moved right and up by a step each")
        #expect(v.viewer.index == 4)
        var presses = 0
        while v.viewer.index == 4 && presses < 30 { key("Right"); presses += 1 }
        #expect(presses == 14, "13 steps of 60 px (the last one short) over the 740 px left to the edge, then the page")
        #expect(v.viewer.index == 5, "at the edge, Right turns the page")
        #expect(v.viewer.zoomScale == 1)
    }
}
