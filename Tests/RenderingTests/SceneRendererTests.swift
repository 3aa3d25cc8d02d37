import Dispatch
import Geometry
import Imaging
import Pixels
import Synchronization
import Testing
import TestSupport
@testable import Rendering
import SceneGraph

@Suite struct SceneRendererTests {
    let renderer = SceneRenderer()

    func scene(_ size: Size = Size(width: 100, height: 100)) -> Node {
        let root = Node(name: "root", frame: Rect(origin: .zero, size: size))
        root.backgroundColor = .white
        return root
    }

    @Test func fillsBackgroundsWithAlpha() throws {
        let root = scene()
        let box = Node(name: "box", frame: Rect(x: 10, y: 10, width: 20, height: 20))
        box.backgroundColor = Color(red: 1, green: 0, blue: 0)
        box.alpha = 0.5
        root.addChild(box)
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(image.pixel(x: 5, y: 5) == 0xFFFF_FFFF)
        let blended = image.pixel(x: 20, y: 20)
        #expect(blended >> 16 & 0xFF == 0xFF)
        #expect(abs(Int(blended >> 8 & 0xFF) - 128) <= 1)
    }

    @Test func hiddenAndTransparentNodesAreNotDrawn() throws {
        let root = scene()
        let hidden = Node(name: "hidden", frame: Rect(x: 0, y: 0, width: 50, height: 50))
        hidden.backgroundColor = .black
        hidden.isHidden = true
        let clear = Node(name: "clear", frame: Rect(x: 50, y: 50, width: 50, height: 50))
        clear.backgroundColor = .black
        clear.alpha = 0
        root.addChild(hidden)
        root.addChild(clear)
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(image.pixel(x: 25, y: 25) == 0xFFFF_FFFF)
        #expect(image.pixel(x: 75, y: 75) == 0xFFFF_FFFF)
    }

    @Test func aspectFillIsClippedToTheNode() throws {
        let root = scene()
        let cell = Node(name: "cell", frame: Rect(x: 20, y: 20, width: 40, height: 40))
        cell.clipsToBounds = true
        cell.contentMode = .aspectFill
        cell.image = try TestImages.fixture("rgb8.png")   // 64x48: fills 53x40, overhangs 6.7 px a side
        root.addChild(cell)
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(image.pixel(x: 16, y: 30) == 0xFFFF_FFFF)        // left of the cell: untouched
        #expect(image.pixel(x: 63, y: 30) == 0xFFFF_FFFF)        // right of it
        #expect(image.pixel(x: 22, y: 22) & 0xFFFFFF == 0xFF0000) // red top-left quadrant inside
        #expect(image.pixel(x: 57, y: 57) & 0xFFFFFF == 0xFFFFFF) // white bottom-right
    }

    @Test func transformsScaleAboutTheCentre() throws {
        let root = scene()
        let box = Node(name: "box", frame: Rect(x: 20, y: 20, width: 60, height: 60))
        box.backgroundColor = .black
        box.transform = Transform2D(scale: 0.5)   // covers 35...65
        root.addChild(box)
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(image.pixel(x: 30, y: 50) == 0xFFFF_FFFF)
        #expect(image.pixel(x: 40, y: 50) == 0xFF00_0000)
        #expect(image.pixel(x: 70, y: 50) == 0xFFFF_FFFF)
    }

    /// A frame never filters a full-size photo: it draws from a halving that is at least the
    /// target size and less than twice it.
    /// A photo shown at its own size lands on whole pixels, unfiltered, even from a fractional
    /// frame: each pixel of a one-pixel checkerboard comes out pure black or white.
    @Test func aPhotoAtItsOwnSizeIsCopiedCrisplyAtAWholePixelOffset() throws {
        let board = PixelImage(width: 20, height: 10)
        for y in 0..<10 { for x in 0..<20 { board.setPixel(x: x, y: y, (x + y) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF) } }
        let root = scene()
        let photo = Node(name: "photo", frame: Rect(x: 30.4, y: 40.6, width: 20.5, height: 10))
        photo.contentMode = .scaleToFill
        photo.image = board
        root.addChild(photo)
        let image = try renderer.render(root, width: 100, height: 100)
        for y in 41..<51 {
            for x in 30..<50 {
                let p = image.pixel(x: x, y: y) & 0xFF_FFFF
                #expect(p == ((x - 30 + y - 41) % 2 == 0 ? 0 : 0xFF_FFFF), "(\(x), \(y)): \(String(p, radix: 16))")
            }
        }
        // Twice its size, it is resampled: the board's edges blend.
        photo.frame = Rect(x: 30, y: 40, width: 40, height: 20)
        let scaled = try renderer.render(root, width: 100, height: 100)
        let blended = (40..<60).flatMap { y in (30..<70).map { scaled.pixel(x: $0, y: y) & 0xFF } }.filter { $0 != 0 && $0 != 0xFF }
        #expect(!blended.isEmpty)
    }

    /// A title longer than its box loses its middle, not its ends, and stays inside the box.
    @Test func textTooLongForItsBoxIsElidedInTheMiddle() throws {
        let root = scene(Size(width: 300, height: 40))
        let label = Node(name: "label", frame: Rect(x: 100, y: 0, width: 100, height: 40))
        label.text = TextContents("a_very_long_photo_name_from_a_camera.jpg", fontSize: 15, color: .black)
        root.addChild(label)
        let image = try renderer.render(root, width: 300, height: 40)
        func inked(_ xs: Range<Int>) -> Bool { xs.contains { x in (0..<40).contains { image.pixel(x: x, y: $0) != 0xFFFF_FFFF } } }
        #expect(!inked(0..<100) && !inked(200..<300), "nothing outside the box")
        #expect(inked(100..<120) && inked(180..<200), "the start and the end are there")
    }

    /// Group opacity: a translucent node's children are composited with it as one layer (a child over
    /// its parent's black shows no black through it), and its own background alone shows elsewhere.
    @Test func aTranslucentParentFadesWithItsChildrenAsOneLayer() throws {
        let root = scene()
        let fading = Node(name: "fading", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        fading.backgroundColor = .black
        fading.alpha = 0.5
        let bar = Node(name: "bar", frame: Rect(x: 10.5, y: 0, width: 30, height: 20.25))
        bar.backgroundColor = Color(hex: 0xFF0000)
        fading.addChild(bar)
        root.addChild(fading)
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(image.pixel(x: 20, y: 10) == 0xFFFF_7F7F, "the bar over white at half: no black shows through it")
        #expect(image.pixel(x: 70, y: 60) == 0xFF7F_7F7F, "black at half over white")
        #expect(image.pixel(x: 20, y: 40) == 0xFF7F_7F7F)
        #expect(image.pixel(x: 60, y: 10) == 0xFF7F_7F7F, "beside the bar, in the rows it covers")
    }

    @Test func drawsFromAPrescaledCopyCloseToTheTargetSize() throws {
        let cache = ScaledImageCache()
        let photo = TestImages.solid(width: 4000, height: 3000, argb: 0xFF33_6699)
        let level = try #require(cache.level(for: photo, targetWidth: 160, targetHeight: 120)).level
        #expect(level.image.width == 250 && level.image.height == 187)
        #expect(try #require(cache.level(for: photo, targetWidth: 160, targetHeight: 120)).level === level)
        let big = try #require(cache.level(for: photo, targetWidth: 1920, targetHeight: 1440)).level
        #expect(big.image.width == 2000)
        #expect(try #require(cache.level(for: photo, targetWidth: 4000, targetHeight: 3000)).level.image === photo)
    }

    @Test func cacheStaysWithinItsMemoryBound() throws {
        let cache = ScaledImageCache(byteLimit: 1 << 20)
        var photos: [PixelImage] = []
        for _ in 0..<6 {
            let photo = TestImages.solid(width: 1024, height: 1024, argb: 0xFF00_0000)
            photos.append(photo)
            cache.beginDraw()
            _ = cache.level(for: photo, targetWidth: 400, targetHeight: 400)   // 512x512 copy: 1 MiB
            cache.endDraw()
        }
        #expect(cache.copiedBytes <= 1 << 20)
    }

    /// The cache holds the photos it draws weakly: 100 photos drawn and let go leave nothing behind
    /// once one more is drawn.
    @Test func photosLetGoLeaveTheCache() throws {
        let renderer = SceneRenderer()
        let root = scene(Size(width: 100, height: 100))
        var photos: [PixelImage] = []
        for i in 0..<100 {
            let photo = TestImages.solid(width: 400, height: 400, argb: 0xFF00_0000 | UInt32(i))
            photos.append(photo)
            let node = Node(name: "photo", frame: Rect(x: 0, y: 0, width: 100, height: 100))
            node.image = photo
            root.addChild(node)
        }
        _ = try renderer.render(root, width: 100, height: 100)
        #expect(renderer.cache.counts == (photos: 100, copies: 100), "each drawn at a quarter: one copy each")
        weak let first = photos.first
        for child in root.children { child.removeFromParent() }
        photos.removeAll()
        #expect(first == nil, "the cache keeps no photo alive")

        let last = Node(name: "last", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        last.image = TestImages.solid(width: 400, height: 400, argb: 0xFFFF_FFFF)
        root.addChild(last)
        _ = try renderer.render(root, width: 100, height: 100)
        #expect(renderer.cache.counts == (photos: 1, copies: 1))
        #expect(renderer.cache.copiedBytes == 100 * 100 * 4)
    }

    /// A photo that stops being drawn loses its copies after a while, though its owner keeps it.
    @Test func copiesNotDrawnForAWhileAreDropped() throws {
        let cache = ScaledImageCache(maxIdleDraws: 3)
        let kept = TestImages.solid(width: 800, height: 800, argb: 0xFF00_0000)
        cache.beginDraw()
        _ = cache.level(for: kept, targetWidth: 200, targetHeight: 200)
        cache.endDraw()
        for _ in 0..<3 { cache.beginDraw(); cache.endDraw() }
        #expect(cache.counts.photos == 1)
        cache.beginDraw(); cache.endDraw()
        #expect(cache.counts == (photos: 0, copies: 0) && cache.copiedBytes == 0)
    }

    /// In the window, a missing copy is made by a worker: the frame draws from a larger one meanwhile,
    /// and the loop is woken when the copy is there.
    @Test func copiesAreMadeInTheBackgroundWithAStandIn() async throws {
        let woken = Woken()
        let cache = ScaledImageCache(making: .inBackground(wake: { woken.count.add(1, ordering: .relaxed) }))
        let photo = TestImages.solid(width: 2000, height: 1000, argb: 0xFF12_3456)
        let first = try #require(cache.level(for: photo, targetWidth: 240, targetHeight: 120))
        #expect(first.isStandIn && first.level.image === photo)
        // Idle once what was made is taken: until then, woken.
        for _ in 0..<500 where woken.count.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(woken.count.load(ordering: .relaxed) == 1)
        #expect(cache.takeMade())
        let exact = try #require(cache.level(for: photo, targetWidth: 240, targetHeight: 120))
        #expect(!exact.isStandIn && exact.level.image.width == 250 && exact.level.image.pixel(x: 10, y: 10) == 0xFF12_3456)
    }

    /// A photo at rest (at 4K, 4000 px wide shown 2880), or shrinking, is given ahead the halving
    /// that a frame drawn for speed draws it from once it shrinks a little (pulled down): the motion's
    /// first frame draws from that halving, not from the whole picture (6–9 ms at 4K, against 2–4),
    /// and the halving's arrival asks for no frame. A photo growing (zooming in from its cell) and a
    /// thumbnail are asked nothing ahead.
    @Test func aPhotoAtRestHasTheCopyItsFirstFrameInMotionDrawsFrom() async throws {
        let woken = Woken()
        let cache = ScaledImageCache(making: .inBackground(wake: { woken.count.add(1, ordering: .relaxed) }))
        let atRest = PixelImage(width: 2000, height: 1500, isOpaque: true)
        let zoomingOut = PixelImage(width: 2000, height: 1500, isOpaque: true)
        let growing = PixelImage(width: 2000, height: 1500, isOpaque: true)
        let thumbnail = PixelImage(width: 512, height: 384, isOpaque: true)
        for step in 0..<4 {
            cache.beginDraw()
            let rest = try #require(cache.level(for: atRest, targetWidth: 1440, targetHeight: 1080))
            #expect(!rest.isStandIn && rest.level.image === atRest)
            // Drawn for speed from the whole picture, down to its fit size.
            let width = [2400.0, 1800, 1500, 1440][step]
            _ = try #require(cache.level(for: zoomingOut, targetWidth: width, targetHeight: width * 0.75, nearest: true))
            _ = try #require(cache.level(for: thumbnail, targetWidth: 346, targetHeight: 259))
            cache.endDraw()
        }
        for _ in 0..<500 where woken.count.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!cache.takeMade(), "nothing to draw again")
        #expect(cache.isIdle)
        #expect(cache.counts.copies == 3, "the two photos' halvings, the thumbnail's exact copy")
        cache.beginDraw()
        for photo in [atRest, zoomingOut] {
            let pulled = try #require(cache.level(for: photo, targetWidth: 1400, targetHeight: 1050, nearest: true))
            #expect(!pulled.isStandIn && pulled.level.image.width == 1000)
        }
        cache.endDraw()
        for width in [1500.0, 1700, 1900] {
            cache.beginDraw()
            _ = try #require(cache.level(for: growing, targetWidth: width, targetHeight: width * 0.75, nearest: true))
            cache.endDraw()
        }
        #expect(cache.isIdle && cache.counts.copies == 3, "nothing asked for the growing photo")
    }

    /// A screenshot from the window's renderer is exact from the first frame: no stand-in drawn
    /// with the cheap filter while the worker still makes the level.
    @Test func anExportedFrameNeverDrawsAStandIn() throws {
        let root = scene(Size(width: 120, height: 90))
        let photo = Node(name: "photo", frame: Rect(x: 0, y: 0, width: 120, height: 90))
        photo.image = try TestImages.fixture("rgb8.png").scaled(toWidth: 1000, height: 750)
        root.addChild(photo)
        let window = SceneRenderer(levels: .inBackground(wake: {}))
        let exported = try window.render(root, width: 120, height: 90)
        #expect(PixelComparison(exported, try renderer.render(root, width: 120, height: 90), channelTolerance: 0).differing == 0)
    }

    /// A frame drawn for speed (a pinch under way) puts each device pixel's nearest photo pixel
    /// straight into the frame, on whole pixels; the background around it is painted as before.
    @Test func aFrameDrawnForSpeedIsTheNearestPixelsOnWholePixels() throws {
        let root = scene(Size(width: 100, height: 80))
        root.backgroundColor = Color(hex: 0x000000)
        let quadrants = PixelImage(width: 40, height: 30, isOpaque: true)
        for y in 0..<30 { for x in 0..<40 { quadrants.setPixel(x: x, y: y, [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF][(y < 15 ? 0 : 2) + (x < 20 ? 0 : 1)]) } }
        let photo = Node(name: "photo", frame: Rect(x: 10.3, y: 5.7, width: 80, height: 60))
        photo.image = quadrants
        root.addChild(photo)
        let frame = PixelImage(width: 100, height: 80)
        let window = SceneRenderer()
        window.drawsForSpeed = true
        try window.draw(root, into: frame)
        // Pixel x shows the photo when its centre is inside [10.3, 90.3): 10…89; rows 6…65.
        #expect(frame.pixel(x: 9, y: 30) == 0xFF00_0000 && frame.pixel(x: 10, y: 30) == 0xFFFF_0000)
        #expect(frame.pixel(x: 89, y: 30) == 0xFF00_FF00 && frame.pixel(x: 90, y: 30) == 0xFF00_0000)
        #expect(frame.pixel(x: 50, y: 5) == 0xFF00_0000 && frame.pixel(x: 50, y: 6) == 0xFF00_FF00)
        #expect(frame.pixel(x: 49, y: 35) == 0xFFFF_0000 && frame.pixel(x: 50, y: 35) == 0xFF00_FF00, "columns 20 | 21 of the photo")
        #expect(frame.pixel(x: 30, y: 65) == 0xFF00_00FF && frame.pixel(x: 30, y: 66) == 0xFF00_0000)
        // The same scene drawn well differs only where the filter blends: bands a pixel or two wide
        // along the photo's edges and its quadrants' borders (each 80 + 60 px long, twice).
        let good = try renderer.render(root, width: 100, height: 80)
        let differing = PixelComparison(frame, good, channelTolerance: 0).differing
        #expect(differing > 0 && differing <= 4 * (80 + 60))
    }

    /// A window resized again and again shows each thumbnail at one size at a time: its exact copy
    /// for a new size replaces the one for the old, so copies of sizes no longer shown don't pile up.
    @Test func anExactCopyReplacesTheOneForTheSizeBefore() throws {
        let cache = ScaledImageCache()
        let thumbnail = try TestImages.fixture("rgb8.png").scaled(toWidth: 200, height: 150)
        for width in [120.0, 104, 140, 160, 110] {   // a resize, then the cells at rest (all above a halving)
            for _ in 1...2 {
                cache.beginDraw()
                _ = cache.level(for: thumbnail, targetWidth: width, targetHeight: width * 0.75)
                cache.endDraw()
            }
            #expect(cache.counts.copies == 1)
            #expect(cache.copiedBytes == Int(width) * 4 * Int((width * 0.75).rounded()))
        }
    }

    /// A thumbnail's first draw smaller (it just arrived in its cell) makes its exact copy there and
    /// then. Drawn later at a new size, it gets a copy of that size once the size holds for two frames
    /// running (a cell at rest after a resize), made by the worker; from then on the frame copies it 1:1,
    /// and the window's frame equals the exported one. A size that changes every frame (a copy in
    /// flight) makes none.
    @Test func aThumbnailAtRestGetsAnExactCopyAndItsFramesEqualTheExport() async throws {
        let woken = Woken()
        let cache = ScaledImageCache(making: .inBackground(wake: { woken.count.add(1, ordering: .relaxed) }))
        let thumbnail = try TestImages.fixture("rgb8.png").scaled(toWidth: 200, height: 150)
        cache.beginDraw()
        let first = try #require(cache.level(for: thumbnail, targetWidth: 120, targetHeight: 90))
        #expect(first.level.image.width == 120 && first.level.image.height == 90 && !first.isStandIn, "made in the first frame")
        #expect(!cache.wantsAnotherDraw && cache.provisionalChoices == 0 && cache.isIdle, "the first frame is final")
        cache.endDraw()
        for width in stride(from: 150.0, to: 190, by: 7) {   // in flight: a new size each frame
            cache.beginDraw()
            let choice = try #require(cache.level(for: thumbnail, targetWidth: width, targetHeight: width * 0.75))
            #expect(choice.level.image === thumbnail, "a moving copy is drawn from the thumbnail")
            cache.endDraw()
        }
        #expect(cache.isIdle && cache.counts.copies == 1, "nothing made for a moving copy")
        for draw in 1...2 {   // at rest at a new size
            cache.beginDraw()
            let choice = try #require(cache.level(for: thumbnail, targetWidth: 104, targetHeight: 78))
            #expect(choice.level.image === thumbnail && !choice.isStandIn, "drawn from the thumbnail meanwhile")
            #expect(cache.wantsAnotherDraw == (draw == 1), "the first draw asks for one more")
            cache.endDraw()
        }
        for _ in 0..<500 where woken.count.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        cache.beginDraw()
        let exact = try #require(cache.level(for: thumbnail, targetWidth: 104, targetHeight: 78)).level.image
        #expect(exact.width == 104 && exact.height == 78)

        let root = scene(Size(width: 120, height: 90))
        let cell = Node(name: "cell", frame: Rect(x: 0, y: 0, width: 120, height: 90))
        cell.image = thumbnail
        root.addChild(cell)
        let window = SceneRenderer(levels: .inBackground(wake: {}))
        let frame = PixelImage(width: 120, height: 90)
        try window.draw(root, into: frame)
        #expect(window.isIdle, "nothing more to make")
        #expect(PixelComparison(frame, try window.render(root, width: 120, height: 90), channelTolerance: 0).differing == 0)
    }

    /// The grid's first complete frame is its last: a thumbnail that arrives in a cell at a fractional
    /// place and size is drawn from its exact copy in the first frame that shows it, and every frame
    /// after shows the same pixels. (A stand-in drawn until the copy came changed by a level or two;
    /// drawn at its own fractional geometry, every cell changed by about 1.3 % RMSE, a tenth of a second
    /// after the grid was complete: a shimmer over the grid.)
    @Test func aCellShowsItsThumbnailTheSameFromItsFirstFrame() throws {
        let (root, cell, thumbnail) = fractionalCell()
        let window = SceneRenderer(levels: .inBackground(wake: {}))
        let empty = PixelImage(width: 200, height: 200)
        try window.draw(root, into: empty)   // the cell before its thumbnail came
        cell.image = thumbnail
        let first = PixelImage(width: 200, height: 200)
        try window.draw(root, into: first)
        #expect(window.isIdle && !window.wantsAnotherDraw, "the first frame with the thumbnail is final")
        #expect(PixelComparison(empty, first, channelTolerance: 0).differing > 150 * 150, "the thumbnail is drawn")
        let later = PixelImage(width: 200, height: 200)
        try window.draw(root, into: later)
        #expect(PixelComparison(first, later, channelTolerance: 0).differing == 0)
    }

    /// A cell wholly outside the frame's clip (scrolled out of the grid's view) costs the frame nothing:
    /// its exact copy is made by the worker, not in the frame (the rows above the view, their thumbnails
    /// come while the window was idle, cost the 4K frame of a tap 30 ms), and once scrolled in, its first
    /// frame is final and shows what an exported one does.
    @Test func aCellOutOfViewGetsItsCopyFromTheWorkerNotTheFrame() async throws {
        let (root, cell, thumbnail) = fractionalCell()
        // The grid clips; its cells are in a layer that does not (the rows scroll in it).
        root.clipsToBounds = true
        let rows = Node(name: "rows", frame: Rect(x: 0, y: 0, width: 200, height: 200))
        root.addChild(rows)
        rows.addChild(cell)
        cell.image = thumbnail
        cell.frame.origin.y = -300
        let window = SceneRenderer(levels: .inBackground(wake: {}))
        let frame = PixelImage(width: 200, height: 200)
        try window.draw(root, into: frame)
        var arrived = false
        for _ in 0..<500 where !arrived {
            try await Task.sleep(for: .milliseconds(10))
            arrived = window.takeArrivedLevels()
        }
        #expect(arrived, "the copy came from the worker")
        cell.frame.origin.y = 9.3
        try window.draw(root, into: frame)
        #expect(window.isIdle && !window.wantsAnotherDraw, "the first frame in view is final")
        #expect(PixelComparison(frame, try window.render(root, width: 200, height: 200), channelTolerance: 0).differing == 0)
    }

    /// A cell at a new size (the window resized) is drawn, before its exact copy for that size comes,
    /// just as the copy then draws it, to within Cairo's rounding.
    @Test func aResizedCellLooksTheSameBeforeAndAfterItsExactCopyComes() async throws {
        let (root, cell, thumbnail) = fractionalCell()
        cell.image = thumbnail
        let window = SceneRenderer(levels: .inBackground(wake: {}))
        let frame = PixelImage(width: 200, height: 200)
        try window.draw(root, into: frame)   // at the size before
        cell.frame = Rect(x: 10.25, y: 7.6, width: 180.3, height: 180.3)
        let first = PixelImage(width: 200, height: 200)
        try window.draw(root, into: first)
        try window.draw(root, into: frame)   // the size held: the copy is asked for
        var arrived = false
        for _ in 0..<500 where !arrived {
            try await Task.sleep(for: .milliseconds(10))
            arrived = window.takeArrivedLevels()
        }
        #expect(arrived, "the exact copy came")
        try window.draw(root, into: frame)
        // The same pixels, to within the rounding of Cairo's two ways to the same bilinear samples (the
        // copy made on its own, the stand-in drawn at its place): a level or two in a few pixels.
        let change = PixelComparison(first, frame, channelTolerance: 0)
        #expect(change.largest <= 2 && change.differing < 180 * 180 / 50, "\(change.differing) pixels differ, by up to \(change.largest)")
    }

    /// A screen hidden for longer than copies live unused (the grid under the viewer) keeps its cells'
    /// exact copies: the frame it shows again in draws them as they were, making none (the photo's
    /// landing in its cell made all of the grid's again, 12–16 ms at 1080p). A picture taken out of the
    /// scene loses its copies as before.
    @Test func aHiddenScreenKeepsItsCopiesForWhenItShowsAgain() throws {
        let root = scene(Size(width: 200, height: 100))
        let grid = Node(name: "grid", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.addChild(grid)
        let thumbnails = (0..<2).map { _ in TestImages.solid(width: 160, height: 120, argb: 0xFF33_6699) }
        for (i, thumbnail) in thumbnails.enumerated() {
            let cell = Node(name: "cell", frame: Rect(x: Double(i) * 100, y: 0, width: 90, height: 90))
            cell.contentMode = .aspectFill
            cell.clipsToBounds = true
            cell.image = thumbnail
            grid.addChild(cell)
        }
        let renderer = SceneRenderer(levels: .inBackground(wake: {}))
        let frame = PixelImage(width: 200, height: 100)
        try renderer.draw(root, into: frame)
        #expect(renderer.cache.counts == (photos: 2, copies: 2))
        grid.isHidden = true
        for _ in 0...renderer.cache.maxIdleDraws { try renderer.draw(root, into: frame) }
        #expect(renderer.cache.counts == (photos: 2, copies: 2), "kept while hidden")
        grid.isHidden = false
        try renderer.draw(root, into: frame)
        #expect(renderer.cache.counts == (photos: 2, copies: 2) && renderer.isIdle, "drawn from the copies kept")
        grid.children[1].removeFromParent()
        for _ in 0...renderer.cache.maxIdleDraws { try renderer.draw(root, into: frame) }
        #expect(renderer.cache.counts == (photos: 1, copies: 1), "a cell taken out loses its copy")
    }

    /// A scene with one aspect-filled cell at a fractional place and size (160.7 points square, moved
    /// to 180.3 by a resize), and a thumbnail with fine detail, where a sampling shift of a fraction of
    /// a pixel shows.
    private func fractionalCell() -> (root: Node, cell: Node, thumbnail: PixelImage) {
        let root = scene(Size(width: 200, height: 200))
        let cell = Node(name: "cell", frame: Rect(x: 12.4, y: 9.3, width: 160.7, height: 160.7))
        cell.clipsToBounds = true
        cell.contentMode = .aspectFill
        let thumbnail = PixelImage(width: 320, height: 214, isOpaque: true)
        for y in 0..<214 { for x in 0..<320 { thumbnail.setPixel(x: x, y: y, 0xFF00_0000 | UInt32((x * 37 + y * 91) % 256) << 16 | UInt32((x * y) % 256) << 8 | UInt32((x ^ y) & 0xFF)) } }
        root.addChild(cell)
        return (root, cell, thumbnail)
    }

    /// What lies under an opaque sibling that covers the whole frame is not drawn (the grid under the
    /// viewer's black); under a translucent one, or one that leaves part of the frame, it is.
    @Test func nothingIsDrawnUnderAnOpaqueSiblingThatCoversTheFrame() throws {
        let root = scene(Size(width: 200, height: 100))
        let grid = Node(name: "grid", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 80, height: 80))
        cell.image = TestImages.solid(width: 400, height: 400, argb: 0xFF12_3456)
        grid.addChild(cell)
        let viewer = Node(name: "viewer", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        viewer.backgroundColor = .black
        root.addChild(grid)
        root.addChild(viewer)
        for (alpha, frame, drawn) in [(1.0, viewer.frame, false), (0.5, viewer.frame, true),
                                      (1.0, Rect(x: 20, y: 0, width: 180, height: 100), true)] {
            viewer.alpha = alpha
            viewer.frame = frame
            let renderer = SceneRenderer()
            let image = try renderer.render(root, width: 200, height: 100)
            #expect((renderer.cache.counts.photos == 1) == drawn, "alpha \(alpha), \(frame)")
            if alpha == 1 {
                // Left of the viewer, the cell shows; under it, black.
                #expect(image.pixel(x: 15, y: 50) == (frame.minX > 15 ? 0xFF12_3456 : 0xFF00_0000))
                #expect(image.pixel(x: 50, y: 50) == 0xFF00_0000)
            }
        }
    }

    /// A translucent node is composited as a layer only where its children paint: a pager's
    /// neighbours, clipped away off either side of it, paint nothing (they made the viewer fading over
    /// the grid a full-screen layer, 18 ms a frame at 4K).
    @Test func aLayerLeavesOutChildrenClippedAwayOnEitherSide() throws {
        let root = scene(Size(width: 100, height: 100))
        let viewer = Node(name: "viewer", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        viewer.backgroundColor = .black
        viewer.alpha = 0.5
        let pages = Node(name: "pages", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        pages.clipsToBounds = true
        pages.bounds.origin.x = 100   // the middle page shows; its photo is hidden (it flies)
        for x in [0.0, 100, 200] {
            let page = Node(name: "page", frame: Rect(x: x, y: 0, width: 100, height: 100))
            page.image = TestImages.solid(width: 100, height: 100, argb: 0xFF12_3456)
            page.isHidden = x == 100
            pages.addChild(page)
        }
        let bar = Node(name: "bar", frame: Rect(x: 0, y: 0, width: 100, height: 10))
        bar.backgroundColor = .white
        viewer.addChild(pages)
        viewer.addChild(bar)
        root.addChild(viewer)
        let renderer = SceneRenderer()
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(renderer.layerPixels == 100 * 10, "the bar's area only")
        // Black at half over white; the bar white over white.
        #expect(image.pixel(x: 50, y: 50) == 0xFF80_8080 || image.pixel(x: 50, y: 50) == 0xFF7F_7F7F, "\(image.pixel(x: 50, y: 50))")
        #expect(image.pixel(x: 50, y: 5) == 0xFFFF_FFFF)
    }

    /// A layer's memory is kept from frame to frame (a new one each frame touched its pages each frame:
    /// 1.4 ms for the viewer's bar at 4K), and what is drawn into it is what a layer shows: a bar fading
    /// with a button and, inside it, a translucent group, then grown; every frame equals a fresh render.
    @Test func layersKeepTheirMemoryFromFrameToFrame() throws {
        let root = scene()
        let bar = Node(name: "bar", frame: Rect(x: 0, y: 0, width: 100, height: 20))
        let button = Node(name: "button", frame: Rect(x: 5, y: 5, width: 10, height: 10))
        button.backgroundColor = Color(hex: 0xFF0000)
        let group = Node(name: "group", frame: Rect(x: 20, y: 2, width: 40, height: 16))
        group.alpha = 0.5
        let label = Node(name: "label", frame: Rect(x: 0, y: 0, width: 40, height: 16))
        label.backgroundColor = Color(hex: 0x0000FF)
        group.addChild(label)
        bar.addChild(button)
        bar.addChild(group)
        root.addChild(bar)
        let renderer = SceneRenderer()
        let frame = PixelImage(width: 200, height: 200)
        for step in 0..<6 {
            bar.alpha = 0.3 + 0.1 * Double(step)
            if step == 4 { button.frame = Rect(x: 5, y: 5, width: 10, height: 60) }   // the bar's layer grows
            try renderer.draw(root, into: frame, scale: 2, clearingTo: 0xFF00_0000)
            let expected = try SceneRenderer().render(root, width: 200, height: 200, scale: 2)
            #expect(PixelComparison(frame, expected, channelTolerance: 0).differing == 0, "frame \(step)")
            // Red at the bar's alpha over white; blue at half of it.
            let a = bar.alpha
            func channel(_ value: UInt32, _ shift: UInt32) -> Double { Double(value >> shift & 0xFF) }
            let red = frame.pixel(x: 20, y: 20), blue = frame.pixel(x: 80, y: 20)
            #expect(abs(channel(red, 16) - 255) <= 1 && abs(channel(red, 8) - 255 * (1 - a)) <= 1.5, "\(String(red, radix: 16))")
            #expect(abs(channel(blue, 0) - 255) <= 1 && abs(channel(blue, 16) - 255 * (1 - a / 2)) <= 1.5, "\(String(blue, radix: 16))")
        }
        #expect(renderer.layers.made == 3, "one for each depth, and one more for the bar grown")
    }

    /// A subtree marked to be kept as pixels (the grid) is copied, not drawn, from the third frame
    /// on that it stays the same; what changes in it (a new picture, a cell hidden, a scroll) draws it
    /// again; and every frame shows what drawing it would.
    /// A 120x100 scene: a white grid kept as pixels when still, holding `cell` (at 10, 10), and a
    /// half-red photo over it that the tests move.
    func stillGridScene(cell: Node) -> (root: Node, grid: Node, photo: Node) {
        let root = scene(Size(width: 120, height: 100))
        let grid = Node(name: "grid", frame: Rect(x: 0, y: 0, width: 120, height: 100))
        grid.backgroundColor = .white
        grid.clipsToBounds = true
        grid.rasterizesWhenStill = true
        grid.addChild(cell)
        let photo = Node(name: "photo", frame: Rect(x: 60, y: 20, width: 30, height: 30))
        photo.backgroundColor = Color(hex: 0xFF0000, alpha: 0.5)
        root.addChild(grid)
        root.addChild(photo)
        return (root, grid, photo)
    }

    /// Draws `root` at 2x into `frame` (240x200) with `photo` moved to `x`, and checks it shows what a fresh
    /// render does; whether the grid came from its copy.
    func drawStillGrid(_ root: Node, _ photo: Node, at x: Double, with renderer: SceneRenderer, into frame: PixelImage) throws -> Bool {
        photo.center.x = x
        try renderer.draw(root, into: frame, scale: 2, clearingTo: 0xFF00_0000)
        let expected = try SceneRenderer().render(root, width: 240, height: 200, scale: 2)
        #expect(PixelComparison(frame, expected, channelTolerance: 0).differing == 0, "photo at \(x)")
        return renderer.stills.copiesDrawn == 1
    }

    @Test func aStillSubtreeIsCopiedUntilItChanges() throws {
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        cell.clipsToBounds = true
        cell.contentMode = .aspectFill
        cell.image = TestImages.solid(width: 160, height: 120, argb: 0xFF12_3456)
        let (root, grid, photo) = stillGridScene(cell: cell)
        let renderer = SceneRenderer()
        let frame = PixelImage(width: 240, height: 200)
        func draw(photoAt x: Double) throws -> Bool { try drawStillGrid(root, photo, at: x, with: renderer, into: frame) }
        #expect(try !draw(photoAt: 70), "first seen: drawn")
        #expect(try !draw(photoAt: 72), "the same again: drawn, and kept")
        #expect(try draw(photoAt: 74), "still the same: copied")
        #expect(try draw(photoAt: 76))
        cell.image = TestImages.solid(width: 160, height: 120, argb: 0xFF65_4321)
        #expect(try !draw(photoAt: 78), "a new picture")
        #expect(frame.pixel(x: 60, y: 60) == 0xFF65_4321)
        cell.isHidden = true
        #expect(try !draw(photoAt: 80), "the cell hidden")
        #expect(frame.pixel(x: 60, y: 60) == 0xFFFF_FFFF)
        cell.isHidden = false
        _ = try draw(photoAt: 82)
        _ = try draw(photoAt: 84)
        #expect(try draw(photoAt: 86))
        grid.bounds.origin.y = 5
        #expect(try !draw(photoAt: 88), "scrolled")
        _ = try draw(photoAt: 90)
        #expect(try draw(photoAt: 92))
        // A picture let go and a new one of the same size made in its place: the allocator hands the
        // new one the old one's address (not under AddressSanitizer, which holds freed memory back),
        // and the copy must not take it for the old.
        cell.image = nil
        cell.image = TestImages.solid(width: 160, height: 120, argb: 0xFF0A_0B0C)
        #expect(try !draw(photoAt: 94), "another picture at the same address")
        #expect(frame.pixel(x: 60, y: 60) == 0xFF0A_0B0C)
    }

    /// A thumbnail arriving for a cell scrolled out of the grid's view changes none of its pixels: the
    /// copy stays in use (at 4K, the first tap after the thumbnails of the rows above came drew the
    /// whole grid, 30–40 ms). One in view, inside a layer that does not clip, draws it again.
    @Test func aCellOutOfViewChangingLeavesTheCopyInUse() throws {
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        cell.clipsToBounds = true
        cell.image = TestImages.solid(width: 160, height: 120, argb: 0xFF12_3456)
        let (root, grid, photo) = stillGridScene(cell: cell)
        let rows = Node(name: "rows", frame: Rect(x: 0, y: 0, width: 120, height: 100))
        let above = Node(name: "above", frame: Rect(x: 10, y: -60, width: 40, height: 40))
        above.clipsToBounds = true
        above.image = TestImages.solid(width: 160, height: 120, argb: 0xFF00_FF00)
        rows.addChild(above)
        grid.addChild(rows)
        let renderer = SceneRenderer()
        let frame = PixelImage(width: 240, height: 200)
        func draw(photoAt x: Double) throws -> Bool { try drawStillGrid(root, photo, at: x, with: renderer, into: frame) }
        _ = try draw(photoAt: 70)
        _ = try draw(photoAt: 72)
        #expect(try draw(photoAt: 74), "still: copied")
        above.image = TestImages.solid(width: 160, height: 120, argb: 0xFF00_00FF)
        #expect(try draw(photoAt: 76), "out of view: still copied")
        above.center.y = 30
        #expect(try !draw(photoAt: 78), "moved into view: drawn")
        #expect(frame.pixel(x: 60, y: 60) == 0xFF00_00FF)
    }

    /// A photo pulled down over the grid hides what lies under it, and what it hides is not painted:
    /// neither the grid's kept copy nor the viewer's black fading over it (at 4K, two passes over 5.5
    /// of the frame's 8.3 million pixels). Every frame, drawn over magenta, shows what a fresh render
    /// does, as the photo moves and shrinks, and once it is translucent nothing is left out under it.
    @Test func whatAPhotoOverTheGridHidesIsNotPainted() throws {
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        cell.image = TestImages.solid(width: 40, height: 40, argb: 0xFF12_3456)
        let (root, grid, marker) = stillGridScene(cell: cell)
        marker.isHidden = true
        let viewer = Node(name: "viewer", frame: grid.frame)
        viewer.backgroundColor = .black
        viewer.alpha = 0.7
        let transitions = Node(name: "transitions", frame: grid.frame)
        let photo = Node(name: "photo", frame: Rect(x: 5, y: 5, width: 90, height: 80))
        photo.contentMode = .aspectFit
        let pixels = PixelImage(width: 80, height: 60, isOpaque: true)
        for y in 0..<60 { for x in 0..<80 { pixels.setPixel(x: x, y: y, x < 40 ? 0xFFC0_4020 : 0xFF20_40C0) } }
        photo.image = pixels
        transitions.addChild(photo)
        root.addChild(viewer)
        root.addChild(transitions)
        let renderer = SceneRenderer()
        let frame = PixelImage(width: 240, height: 200)
        var copied: [Int] = []
        for step in 0..<6 {
            // Pulled down and to the right, shrinking; the last frame fades it.
            photo.frame = Rect(x: 5 + Double(step) * 1.3, y: 5 + Double(step) * 2.1, width: 90 - Double(step) * 3, height: 80 - Double(step) * 2.7)
            photo.alpha = step == 5 ? 0.8 : 1
            viewer.alpha = 0.7 - 0.05 * Double(step)
            // Over the frame before, magenta under it all: a pixel left unpainted would show.
            for y in 0..<200 { for x in 0..<240 { frame.setPixel(x: x, y: y, 0xFFFF_00FF) } }
            try renderer.draw(root, into: frame, scale: 2)
            let expected = try SceneRenderer().render(root, width: 240, height: 200, scale: 2)
            #expect(PixelComparison(frame, expected, channelTolerance: 0).differing == 0, "frame \(step)")
            copied.append(renderer.stills.copiedPixels)
        }
        // The photo's picture, fitted to its frame at 2x, less two pixels of margin all round.
        func hidden(_ step: Int) -> Int {
            let width = (90 - Double(step) * 3) * 2, height = (80 - Double(step) * 2.7) * 2
            let scale = min(width / 80, height / 60)
            let x0 = (5 + Double(step) * 1.3) * 2 + (width - 80 * scale) / 2, y0 = (5 + Double(step) * 2.1) * 2 + (height - 60 * scale) / 2
            let columns = Int((x0 + 80 * scale).rounded(.down)) - Int(x0.rounded(.up)) - 4
            let rows = Int((y0 + 60 * scale).rounded(.down)) - Int(y0.rounded(.up)) - 4
            return columns * rows
        }
        #expect(copied == [0, 0, 240 * 200 - hidden(2), 240 * 200 - hidden(3), 240 * 200 - hidden(4), 240 * 200],
                "copied from the third frame, but where the photo hides the grid; whole under the translucent photo")
    }

    /// In the window the copy's memory is made on a worker (a screenful's pages, first written in a
    /// frame, cost it 60–140 ms of page faults at 4K): asked for at the first draw, the copy is taken
    /// at the first draw after it is ready, and every frame still shows what drawing it would.
    @Test func aWindowsStillSubtreeIsCopiedOnceItsMemoryIsReady() throws {
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        cell.image = TestImages.solid(width: 40, height: 40, argb: 0xFF12_3456)
        let (root, _, photo) = stillGridScene(cell: cell)
        let renderer = SceneRenderer(levels: .inBackground(wake: {}))
        let frame = PixelImage(width: 240, height: 200)
        var copied = false
        let pause = DispatchSemaphore(value: 0)
        for step in 0..<200 where !copied {
            photo.center.x = 60 + Double(step % 20)
            try renderer.draw(root, into: frame, scale: 2, clearingTo: 0xFF00_0000)
            let expected = try SceneRenderer().render(root, width: 240, height: 200, scale: 2)
            #expect(PixelComparison(frame, expected, channelTolerance: 0).differing == 0, "frame \(step)")
            copied = renderer.stills.copiesDrawn == 1
            if !copied { _ = pause.wait(timeout: .now() + .milliseconds(10)) }
        }
        #expect(copied, "the grid is copied once the worker made its memory")
    }

    /// Frames drawn for speed (a motion too slow to draw well) still keep the still subtree, drawn
    /// well: from the third frame on it is copied, and it looks as a frame drawn well shows it.
    @Test func framesDrawnForSpeedKeepTheStillSubtreeDrawnWell() throws {
        let cell = Node(name: "cell", frame: Rect(x: 10, y: 10, width: 37, height: 29))
        cell.image = try TestImages.fixture("rgb8.png")
        let (root, _, photo) = stillGridScene(cell: cell)
        let renderer = SceneRenderer()
        renderer.drawsForSpeed = true
        let frame = PixelImage(width: 240, height: 200)
        var copied: [Bool] = []
        for x in [70.0, 72, 74, 76] {
            photo.center.x = x
            try renderer.draw(root, into: frame, scale: 2, clearingTo: 0xFF00_0000)
            copied.append(renderer.stills.copiesDrawn == 1)
        }
        #expect(copied == [false, false, true, true], "kept from the second frame, copied from the third")
        let well = try SceneRenderer().render(root, width: 240, height: 200, scale: 2)
        #expect(PixelComparison(frame, well, channelTolerance: 0).differing == 0, "the grid as a frame drawn well shows it")
    }

    @Test func smallSceneSnapshot() throws {
        let root = scene(Size(width: 160, height: 120))
        root.backgroundColor = Color(hex: 0xF2F2F7)
        let card = Node(name: "card", frame: Rect(x: 10, y: 10, width: 90, height: 70))
        card.backgroundColor = .white
        card.cornerRadius = 10
        card.clipsToBounds = true
        let photo = Node(name: "photo", frame: Rect(x: 5, y: 5, width: 80, height: 45))
        photo.image = try TestImages.fixture("rgb8.png")
        photo.contentMode = .aspectFit
        card.addChild(photo)
        let label = Node(name: "label", frame: Rect(x: 0, y: 50, width: 90, height: 20))
        label.text = TextContents("Quadrants", fontSize: 11, weight: .bold, color: .black)
        card.addChild(label)
        root.addChild(card)

        let tilted = Node(name: "tilted", frame: Rect(x: 110, y: 30, width: 40, height: 60))
        tilted.backgroundColor = Color(hex: 0x007AFF)
        tilted.transform = Transform2D(rotationAngle: 0.3)
        tilted.alpha = 0.7
        let inner = Node(name: "inner", frame: Rect(x: 10, y: 10, width: 20, height: 20))
        inner.backgroundColor = Color(hex: 0xFF9500)
        tilted.addChild(inner)
        root.addChild(tilted)

        try assertSnapshot(try renderer.render(root, width: 160, height: 120), named: "small-scene")
    }
}

private final class Woken: Sendable {
    let count = Atomic<Int>(0)
}
