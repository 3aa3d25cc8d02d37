import Testing
@testable import Geometry
@testable import SceneGraph

private func close(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool { abs(a.x - b.x) < eps && abs(a.y - b.y) < eps }
private func close(_ a: Rect, _ b: Rect, _ eps: Double = 1e-9) -> Bool {
    close(a.origin, b.origin, eps) && abs(a.width - b.width) < eps && abs(a.height - b.height) < eps
}

@Suite struct NodeGeometryTests {
    @Test func frameFollowsCentreAndBounds() {
        let node = Node(name: "n", frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(node.center == Point(x: 60, y: 45))
        #expect(node.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(node.frame == Rect(x: 10, y: 20, width: 100, height: 50))
    }

    @Test func scaleTransformIsAboutTheCentre() {
        let node = Node(name: "n", frame: Rect(x: 10, y: 20, width: 100, height: 50))
        node.transform = Transform2D(scale: 0.5)
        #expect(close(node.frame, Rect(x: 35, y: 32.5, width: 50, height: 25)))
        #expect(node.center == Point(x: 60, y: 45))
    }

    @Test func rotatedFrameIsTheBoundingBox() {
        let node = Node(name: "n", frame: Rect(x: 0, y: 0, width: 100, height: 50))
        node.transform = Transform2D(rotationAngle: .pi / 2)
        #expect(close(node.frame, Rect(x: 25, y: -25, width: 50, height: 100)))
    }

    @Test func translationMovesTheFrame() {
        let node = Node(name: "n", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        node.transform = Transform2D(translationX: 5, y: -3)
        #expect(node.frame == Rect(x: 5, y: -3, width: 10, height: 10))
    }

    @Test func convertsPointsAndRectsBetweenNestedNodes() {
        let root = Node(name: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let scroller = Node(name: "scroller", frame: Rect(x: 0, y: 100, width: 800, height: 400))
        scroller.bounds.origin.y = 250          // scrolled down by 250
        let cell = Node(name: "cell", frame: Rect(x: 40, y: 300, width: 100, height: 100))
        let zoomed = Node(name: "zoomed", frame: Rect(x: 200, y: 0, width: 200, height: 200))
        zoomed.transform = Transform2D(scale: 2)
        root.addChild(scroller)
        scroller.addChild(cell)
        root.addChild(zoomed)

        // cell origin: content y 300 − scroll 250 + scroller top 100 = 150 in the root.
        #expect(cell.convert(Point.zero, to: root) == Point(x: 40, y: 150))
        #expect(cell.convert(Point.zero, to: nil) == Point(x: 40, y: 150))
        #expect(cell.convert(Rect(x: 0, y: 0, width: 100, height: 100), to: root)
            == Rect(x: 40, y: 150, width: 100, height: 100))
        // zoomed spans root x 100...500, y -100...300 and maps 1 px to 2.
        #expect(close(zoomed.convert(Point(x: 0, y: 0), to: root), Point(x: 100, y: -100)))
        #expect(close(cell.convert(Point(x: 60, y: 50), to: zoomed), Point(x: 0, y: 150)))
        #expect(close(zoomed.convert(Point(x: 0, y: 150), to: cell), Point(x: 60, y: 50)))
        #expect(close(root.convert(Point(x: 100, y: 200), from: cell), Point(x: 140, y: 350)))
        #expect(close(cell.convert(Rect(x: 0, y: 0, width: 100, height: 100), to: zoomed),
                      Rect(x: -30, y: 125, width: 50, height: 50)))
    }

    @Test func hitTestFindsTheFrontmostVisibleNode() {
        let root = Node(name: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let back = Node(name: "back", frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let front = Node(name: "front", frame: Rect(x: 100, y: 100, width: 200, height: 200))
        let child = Node(name: "child", frame: Rect(x: 10, y: 10, width: 20, height: 20))
        root.addChild(back)
        root.addChild(front)
        front.addChild(child)
        #expect(root.hitTest(Point(x: 50, y: 50))?.name == "back")
        #expect(root.hitTest(Point(x: 150, y: 150))?.name == "front")
        #expect(root.hitTest(Point(x: 115, y: 115))?.name == "child")
        #expect(root.hitTest(Point(x: 350, y: 350))?.name == "root")
        #expect(root.hitTest(Point(x: 450, y: 10)) == nil)
        front.isHidden = true
        #expect(root.hitTest(Point(x: 150, y: 150))?.name == "back")
        front.isHidden = false
        front.alpha = 0
        #expect(root.hitTest(Point(x: 115, y: 115))?.name == "back")
        front.alpha = 1
        front.transform = Transform2D(scale: 0.5)   // now spans 150...250
        #expect(root.hitTest(Point(x: 120, y: 120))?.name == "back")
        #expect(root.hitTest(Point(x: 160, y: 160))?.name == "child")
    }

    @Test func reparentingMovesTheNode() {
        let a = Node(name: "a"), b = Node(name: "b"), c = Node(name: "c")
        a.addChild(c)
        b.addChild(c)
        #expect(a.children.isEmpty)
        #expect(b.children.map(\.name) == ["c"])
        #expect(c.parent === b)
        #expect(b.descendant(named: "c") === c)
    }
}

@Suite struct ContentModeTests {
    let wide = Size(width: 400, height: 200)     // 2:1 photo
    let tall = Size(width: 200, height: 400)     // 1:2 photo
    let square = Size(width: 300, height: 300)
    let wideBox = Rect(x: 10, y: 20, width: 300, height: 100)
    let tallBox = Rect(x: 0, y: 0, width: 100, height: 300)

    @Test func aspectFitLetterboxes() {
        let fit = ContentMode.aspectFit
        #expect(fit.rect(forImageOfSize: wide, in: wideBox) == Rect(x: 60, y: 20, width: 200, height: 100))
        #expect(fit.rect(forImageOfSize: tall, in: wideBox) == Rect(x: 135, y: 20, width: 50, height: 100))
        #expect(fit.rect(forImageOfSize: square, in: wideBox) == Rect(x: 110, y: 20, width: 100, height: 100))
        #expect(fit.rect(forImageOfSize: wide, in: tallBox) == Rect(x: 0, y: 125, width: 100, height: 50))
        #expect(fit.rect(forImageOfSize: tall, in: tallBox) == Rect(x: 0, y: 50, width: 100, height: 200))
        #expect(fit.rect(forImageOfSize: square, in: tallBox) == Rect(x: 0, y: 100, width: 100, height: 100))
    }

    @Test func aspectFillCoversAndCentres() {
        let fill = ContentMode.aspectFill
        #expect(fill.rect(forImageOfSize: wide, in: wideBox) == Rect(x: 10, y: -5, width: 300, height: 150))
        #expect(fill.rect(forImageOfSize: tall, in: wideBox) == Rect(x: 10, y: -230, width: 300, height: 600))
        #expect(fill.rect(forImageOfSize: square, in: wideBox) == Rect(x: 10, y: -80, width: 300, height: 300))
        #expect(fill.rect(forImageOfSize: wide, in: tallBox) == Rect(x: -250, y: 0, width: 600, height: 300))
        #expect(fill.rect(forImageOfSize: tall, in: tallBox) == Rect(x: -25, y: 0, width: 150, height: 300))
        #expect(fill.rect(forImageOfSize: square, in: tallBox) == Rect(x: -100, y: 0, width: 300, height: 300))
    }
}
