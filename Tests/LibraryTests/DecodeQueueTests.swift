import Dispatch
import Foundation
import Imaging
import Library
import Pixels
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// The decode queue with a stand-in decoder that records what it was asked, and can hold the
/// worker until the test has queued everything.
@Suite struct DecodeQueueTests {
    final class Recorder: Sendable {
        let asked = Locked<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let holdFirst: Bool
        init(holdFirst: Bool) { self.holdFirst = holdFirst }

        var decode: DecodeQueue.Decode {
            { [self] path, size throws(ImageDecodeError) in
                let n = asked.withLock { $0.append(path.string); return $0.count }
                if holdFirst, n == 1 { gate.wait() }
                if path == "broken" { throw .unknownFormat }
                let image = PixelImage(width: size?.width ?? 8, height: size?.height ?? 8)
                return DecodedImage(image: image, fullSize: (800, 600), format: .png)
            }
        }
    }

    let size = PixelSize(width: 16, height: 16)

    @Test func theOpenPhotoGoesFirstThenNeighboursThenVisibleCellsThenPrefetch() {
        let recorder = Recorder(holdFirst: true)
        let queue = DecodeQueue(threads: 1, decode: recorder.decode)
        queue.request(.thumbnail, index: 0, path: "holding", covering: size, priority: .prefetch)
        while recorder.asked.withLock({ $0.isEmpty }) { usleep(1000) }
        queue.request(.thumbnail, index: 1, path: "prefetch", covering: size, priority: .prefetch)
        queue.request(.thumbnail, index: 2, path: "visible", covering: size, priority: .visible)
        queue.request(.photo, index: 3, path: "neighbour", covering: size, priority: .neighbour)
        queue.request(.photo, index: 4, path: "open", covering: size, priority: .openPhoto)
        queue.request(.thumbnail, index: 5, path: "visible too", covering: size, priority: .visible)
        recorder.gate.signal()
        queue.waitUntilIdle()
        #expect(recorder.asked.withLock { $0 } == ["holding", "open", "neighbour", "visible", "visible too", "prefetch"])
        #expect(queue.takeFinished(.photo).map(\.index) == [4, 3])
        #expect(queue.takeFinished(.thumbnail).map(\.index) == [0, 2, 5, 1])
        #expect(queue.isIdle(.photo) && queue.isIdle(.thumbnail))
    }

    @Test func theSameRequestTwiceIsDecodedOnceAndTakesTheHigherPriority() {
        let recorder = Recorder(holdFirst: true)
        let queue = DecodeQueue(threads: 1, decode: recorder.decode)
        queue.request(.thumbnail, index: 0, path: "holding", covering: size, priority: .prefetch)
        while recorder.asked.withLock({ $0.isEmpty }) { usleep(1000) }
        queue.request(.thumbnail, index: 0, path: "holding", covering: size, priority: .visible)   // running: joins it
        queue.request(.thumbnail, index: 1, path: "cell", covering: size, priority: .visible)
        queue.request(.thumbnail, index: 2, path: "scrolled into view", covering: size, priority: .prefetch)
        queue.request(.thumbnail, index: 2, path: "scrolled into view", covering: size, priority: .visible)
        queue.request(.photo, index: 2, path: "scrolled into view", covering: PixelSize(width: 64, height: 48), priority: .openPhoto)
        recorder.gate.signal()
        queue.waitUntilIdle()
        #expect(recorder.asked.withLock { $0 } == ["holding", "scrolled into view", "cell", "scrolled into view"],
                "the photo-size decode first; the thumbnail request moved up to the visible cells, before index 1")
        #expect(queue.takeFinished(.thumbnail).count == 3)
    }

    @Test func withdrawnRequestsAreNotDecoded() {
        let recorder = Recorder(holdFirst: true)
        let queue = DecodeQueue(threads: 1, decode: recorder.decode)
        for i in 0..<40 { queue.request(.thumbnail, index: i, path: FilePath("\(i)"), covering: size, priority: .visible) }
        while recorder.asked.withLock({ $0.isEmpty }) { usleep(1000) }
        for i in 0..<39 { queue.withdraw(.thumbnail, index: i) }
        recorder.gate.signal()
        queue.waitUntilIdle()
        #expect(recorder.asked.withLock { $0 } == ["0", "39"], "the one under way finishes; the rest are dropped")
        #expect(queue.takeFinished(.thumbnail).map(\.index) == [0, 39])
    }

    @Test func aForgottenPhotosDecodeUnderWayIsNotDeliveredAndItIsDecodedAgain() {
        let recorder = Recorder(holdFirst: true)
        let queue = DecodeQueue(threads: 1, decode: recorder.decode)
        queue.request(.photo, index: 0, path: "old contents", covering: size, priority: .openPhoto)
        while recorder.asked.withLock({ $0.isEmpty }) { usleep(1000) }
        queue.request(.thumbnail, index: 0, path: "old contents", covering: size, priority: .visible)
        // Its file changed: the decode running on the old contents, and the one waiting, are forgotten.
        queue.forget(index: 0)
        queue.request(.photo, index: 0, path: "new contents", covering: size, priority: .openPhoto)
        recorder.gate.signal()
        queue.waitUntilIdle()
        #expect(recorder.asked.withLock { $0 } == ["old contents", "new contents"])
        #expect(queue.takeFinished(.photo).count == 1, "the new contents' decode only")
        #expect(queue.takeFinished(.thumbnail).isEmpty)
    }

    @Test func failuresComeBackAsResults() throws {
        let queue = DecodeQueue(threads: 2, decode: Recorder(holdFirst: false).decode)
        queue.request(.photo, index: 7, path: "broken", covering: size, priority: .openPhoto)
        queue.waitUntilIdle()
        let result = try #require(queue.takeFinished(.photo).first)
        #expect(result.index == 7)
        #expect(throws: ImageDecodeError.unknownFormat) { try result.outcome.get() }
    }

    /// While something moves only one decode runs; the limit comes back when it settles.
    @Test func theConcurrencyLimitHoldsWorkBack() {
        let running = Atomic<Int>(0), most = Atomic<Int>(0)
        let queue = DecodeQueue(threads: 3, decode: { _, size throws(ImageDecodeError) in
            let now = running.add(1, ordering: .relaxed).newValue
            _ = most.max(now, ordering: .relaxed)
            usleep(2000)
            running.subtract(1, ordering: .relaxed)
            return DecodedImage(image: PixelImage(width: 4, height: 4), fullSize: (4, 4), format: .png)
        })
        queue.concurrencyLimit = 1
        for i in 0..<12 { queue.request(.thumbnail, index: i, path: FilePath("\(i)"), covering: size, priority: .visible) }
        queue.waitUntilIdle()
        #expect(most.load(ordering: .relaxed) == 1)
        queue.concurrencyLimit = 99
        #expect(queue.concurrencyLimit == 3)
    }

    /// Real files through the default decoder: a 12 MP-class JPEG decoded to cover a fit size.
    @Test func decodesRealPhotosToCoverTheAskedSize() throws {
        let queue = DecodeQueue()
        let path = TestImages.bundledFolder + "/Kleiber_by_Lukas_Baubkus.jpg"
        queue.request(.photo, index: 0, path: FilePath(path), covering: PixelSize(width: 1440, height: 810), priority: .openPhoto)
        queue.waitUntilIdle()
        let result = try #require(queue.takeFinished(.photo).first)
        let image = try result.outcome.get()
        #expect(image.width >= 1440 && image.height >= 810 && image.width < 1500)
        #expect(result.fullSize == PixelSize(width: 6028, height: 3391))
    }

    /// Camera files with embedded thumbnails: every waiting thumbnail of a priority shows its
    /// placeholder before any of them is decoded, and the decode replaces it.
    @Test func placeholdersComeFirstForEveryCellThenTheDecodes() throws {
        let folder = try TemporaryFolder()
        let paths = try (0..<3).map { i in
            try folder.write("camera\(i).jpg", CameraJPEG.bytes(photo: TestImages.solid(width: 640, height: 480, argb: 0xFF80_8080),
                                                              thumbnail: CameraJPEG.quadrants(width: 160, height: 120)))
        }
        let recorder = Recorder(holdFirst: true)
        let queue = DecodeQueue(threads: 1, decode: recorder.decode)
        // The worker is held in another decode while the three are asked for: none is looked at yet.
        queue.request(.photo, index: 9, path: "holding", covering: size, priority: .openPhoto)
        while recorder.asked.withLock({ $0.isEmpty }) { usleep(1000) }
        for (i, path) in paths.enumerated() { queue.request(.thumbnail, index: i, path: FilePath(path), covering: size, priority: .visible) }
        recorder.gate.signal()
        queue.waitUntilIdle()
        let results = queue.takeFinished(.thumbnail)
        let (early, decoded) = (Array(results.prefix(3)), Array(results.dropFirst(3)))
        #expect(early.map(\.index) == [0, 1, 2] && early.allSatisfy(\.isPlaceholder), "all three before the first decode ends")
        #expect(try early.map { try $0.outcome.get().width } == [160, 160, 160])
        #expect(decoded.map(\.index) == [0, 1, 2] && decoded.allSatisfy { !$0.isPlaceholder })
        #expect(try decoded.map { try $0.outcome.get().width } == [16, 16, 16])
    }

    @Test func placeholdersCanBeTurnedOff() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("camera.jpg", CameraJPEG.bytes(photo: TestImages.solid(width: 640, height: 480, argb: 0xFF80_8080),
                                                                    thumbnail: CameraJPEG.quadrants(width: 160, height: 120)))
        let queue = DecodeQueue(threads: 1, decode: Recorder(holdFirst: false).decode, placeholders: false)
        queue.request(.thumbnail, index: 0, path: FilePath(path), covering: size, priority: .visible)
        queue.waitUntilIdle()
        #expect(queue.takeFinished(.thumbnail).map(\.isPlaceholder) == [false])
    }
}

/// A value behind a pthread lock: ThreadSanitizer (`make sanitize-thread`) sees its ordering, which it
/// does not see in `Mutex` (a futex on Linux).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
