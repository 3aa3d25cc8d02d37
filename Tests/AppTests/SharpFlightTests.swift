import Animation
import Dispatch
import Geometry
import Imaging
import Input
import Pixels
import Library
import SceneGraph
import Synchronization
import Testing
import TestSupport
import SystemPackage
@testable import App

/// The photo flies sharp: its fit-size decode starts at the press, swaps into the flying copy when
/// it arrives mid-flight, shows on the page when it lands, and flies back again.
@Suite struct SharpFlightTests {
    let clock = ManualClock(fps: 60)
    /// Holds every decode larger than a thumbnail until `release` (the test decides when they arrive).
    final class Gate: Sendable {
        private let open = Mutex(false)
        private let semaphore = DispatchSemaphore(value: 0)
        func release() {
            open.withLock { $0 = true }
            for _ in 0..<8 { semaphore.signal() }
        }
        var decode: DecodeQueue.Decode {
            { [self] path, size throws(ImageDecodeError) in
                if let size, size.width > 400 {
                    if !open.withLock({ $0 }) { semaphore.wait() }
                    return try ImageDecoder.decode(file: path, atLeast: size)
                }
                return try TestDecoders.memoizing(path, size)
            }
        }
    }

    /// Decodes as the viewer does (nothing remembered), holding each picture larger than a thumbnail
    /// only weakly: what the app still holds stays.
    final class Watched: Sendable {
        private final class Weak { weak var image: PixelImage?; init(_ image: PixelImage) { self.image = image } }
        private let made = Mutex<[Weak]>([])
        let gate = Gate()
        var decode: DecodeQueue.Decode {
            { [self] path, size throws(ImageDecodeError) in
                let decoded = try gate.decode(path, size)
                if let size, size.width > 400 { made.withLock { $0.append(Weak(decoded.image)) } }
                return decoded
            }
        }
        /// The sizes of those still held by someone, once the decode threads are past the ends of their
        /// jobs (a thread lets go of what it made a moment after it hands it over): within 2 s.
        var held: [String] {
            let pause = DispatchSemaphore(value: 0)
            for _ in 0..<200 where made.withLock({ $0.contains { $0.image != nil } }) { _ = pause.wait(timeout: .now() + .milliseconds(10)) }
            return made.withLock { $0.compactMap { $0.image.map { "\($0.width)x\($0.height)" } } }
        }
        var count: Int { made.withLock { $0.count } }
    }

    func app(queue: DecodeQueue) -> (PhotoViewerApp, Int) {
        let app = PhotoViewerApp(photos: PhotoLibrary.photos(inFolder: FilePath(TestImages.bundledFolder)).photos,
                                 size: Size(width: 1280, height: 800), emptyMessage: "", queue: queue, clock: clock)
        app.settle(stepping: clock)
        return (app, app.photos.firstIndex { $0.name.hasPrefix("Kleiber") }!)
    }

    var copy: (PhotoViewerApp) -> Node? { { $0.root.descendant(named: "transitionImage") } }

    /// `n` frames, taking what the decoders finished without waiting for them (the gate may hold them).
    func frames(_ n: Int, of app: PhotoViewerApp) {
        for _ in 0..<n {
            clock.advanceFrame()
            app.tick()
            app.applyFinishedLoads()
        }
    }

    /// Device pixels across the photo's fit frame in the viewer.
    func fitWidth(_ app: PhotoViewerApp) -> Double { app.viewer!.fitFrame.width * app.pixelScale }

    @Test func aPressStartsTheDecodeSoThePhotoFliesSharpFromTheStart() throws {
        let gate = Gate()
        let queue = DecodeQueue(decode: gate.decode)
        let (app, kleiber) = app(queue: queue)
        let cell = app.cellFrame(kleiber).center
        _ = app.handle(.pointerDown(at: cell, button: 1, time: 1))
        #expect(queue.isPending(.photo, index: kleiber), "asked for at the press, before any tap")
        gate.release()
        app.waitForLoads()
        _ = app.handle(.pointerUp(at: cell, button: 1, time: 1.05))
        let flying = try #require(copy(app)?.image)
        #expect(Double(flying.width) >= 0.9 * fitWidth(app), "\(flying.width) px for a \(fitWidth(app)) px fit")
    }

    @Test func aDecodeArrivingMidFlightSwapsInWithoutAJump() throws {
        let gate = Gate()
        let queue = DecodeQueue(decode: gate.decode)
        let (app, kleiber) = app(queue: queue)
        let cell = app.cellFrame(kleiber).center
        _ = app.handle(.pointerDown(at: cell, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: cell, button: 1, time: 1.05))
        frames(5, of: app)
        let node = try #require(copy(app))
        let thumbnail = try #require(node.image)
        #expect(Double(thumbnail.width) < 0.5 * fitWidth(app), "still the thumbnail")
        let before = (frame: node.frame, alpha: node.alpha, background: app.viewer!.root.alpha)

        gate.release()
        queue.waitUntilIdle()
        app.applyFinishedLoads()
        #expect(copy(app) === node, "the same copy flies on")
        #expect(Double(node.image!.width) >= 0.9 * fitWidth(app), "with the sharp picture")
        #expect(node.frame == before.frame && node.alpha == before.alpha && app.viewer!.root.alpha == before.background)

        app.settle(stepping: clock)
        let page = try #require(app.viewer?.image)
        #expect(page === node.image, "the page shows the decode the copy landed with")

        _ = app.handle(.key(name: "Escape", modifiers: []))
        clock.advanceFrame()
        app.tick()
        #expect(copy(app)?.image === page, "the fly-back flies the page's own decode, not the thumbnail")
    }

    /// A press that becomes a scroll does not keep the photo it began to decode (a screenful of pixels
    /// held while the grid is browsed); a press that opens its photo flies with it.
    @Test func aPressThatScrollsLetsItsDecodeGo() throws {
        let watched = Watched()
        let queue = DecodeQueue(decode: watched.decode)
        let (app, kleiber) = app(queue: queue)
        let cell = app.cellFrame(kleiber).center
        _ = app.handle(.pointerDown(at: cell, button: 1, time: 1))
        _ = app.handle(.pointerMove(to: Point(x: cell.x, y: cell.y - 60), time: 1.05))
        _ = app.handle(.pointerMove(to: Point(x: cell.x, y: cell.y - 120), time: 1.1))
        _ = app.handle(.pointerUp(at: Point(x: cell.x, y: cell.y - 120), button: 1, time: 1.15))
        watched.gate.release()
        app.waitForLoads()
        app.settle(stepping: clock)
        #expect(app.viewer == nil && watched.count == 1, "the press asked for its photo")
        #expect(watched.held == [], "the scroll let it go")
    }

    /// The viewer closed before its neighbours' decodes came: they are let go as they arrive.
    @Test func decodesArrivingAfterTheViewerClosedAreLetGo() throws {
        let watched = Watched()
        let queue = DecodeQueue(decode: watched.decode)
        let (app, kleiber) = app(queue: queue)
        let cell = app.cellFrame(kleiber).center
        _ = app.handle(.pointerDown(at: cell, button: 1, time: 1))
        _ = app.handle(.pointerUp(at: cell, button: 1, time: 1.05))
        // The decodes held at the gate: it lands, then flies home.
        frames(120, of: app)
        #expect(app.viewer != nil)
        _ = app.handle(.key(name: "Escape", modifiers: []))
        frames(120, of: app)
        #expect(app.viewer == nil)
        watched.gate.release()
        app.waitForLoads()
        app.settle(stepping: clock)
        #expect(watched.count >= 2, "the photo and its neighbours were decoded: \(watched.count)")
        #expect(watched.held == [], "none is held with the grid shown (of \(watched.count))")
    }
}
