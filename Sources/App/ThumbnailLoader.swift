import Dispatch
import Foundation
import Imaging
import Pixels
import Synchronization

/// Decodes pictures (grid thumbnails, the open photo) away from the frame loop, as many at once as there are cores. Finished
/// results wait in an inbox until the loop takes them (`takeFinished`); `wake` tells the loop
/// that something arrived (the window loop writes to its pipe, a headless run needs nothing).
public final class ThumbnailLoader: Sendable {
    public struct Result: Sendable {
        public let index: Int
        public let outcome: Swift.Result<PixelImage, ImageDecodeError>
        /// The photo's full upright size, px (the image may be a reduced decode of it).
        public let fullSize: (width: Int, height: Int)?
    }

    private let queue = OperationQueue()
    private let inbox = Mutex<(results: [Result], pending: Int, withdrawn: Set<Int>)>(([], 0, []))
    let wake: @Sendable () -> Void

    public init(wake: @escaping @Sendable () -> Void = {}) {
        self.wake = wake
        queue.maxConcurrentOperationCount = ProcessInfo.processInfo.activeProcessorCount
    }

    /// Queues a decode of `path` that covers `side`×`side` px (an aspect-filled square cell).
    public func request(index: Int, path: String, side: Int) {
        request(index: index, path: path, covering: (side, side))
    }

    /// Queues a decode of `path` that covers `size` px (upright), or the full size if smaller.
    public func request(index: Int, path: String, covering size: (width: Int, height: Int)) {
        inbox.withLock {
            $0.pending += 1
            $0.withdrawn.remove(index)
        }
        queue.addOperation { [self] in
            // Scrolled far away before its turn came: skip the decode.
            let skip = inbox.withLock { state in
                guard state.withdrawn.remove(index) != nil else { return false }
                state.pending -= 1
                return true
            }
            if skip { return }
            let outcome: Swift.Result<PixelImage, ImageDecodeError>
            var fullSize: (width: Int, height: Int)?
            do throws(ImageDecodeError) {
                let decoded = try ImageDecoder.decode(path: path, atLeast: size)
                outcome = .success(decoded.image)
                fullSize = decoded.fullSize
            } catch {
                outcome = .failure(error)
            }
            inbox.withLock {
                $0.results.append(Result(index: index, outcome: outcome, fullSize: fullSize))
                $0.pending -= 1
            }
            wake()
        }
    }

    /// Withdraws a request that has not started yet (a decode under way still delivers its result).
    public func withdraw(index: Int) {
        inbox.withLock { _ = $0.withdrawn.insert(index) }
    }

    /// The results that arrived since the last call, in arrival order.
    public func takeFinished() -> [Result] {
        inbox.withLock { state in
            defer { state.results.removeAll() }
            return state.results
        }
    }

    /// Whether every requested decode has finished and its result has been taken.
    public var isIdle: Bool { inbox.withLock { $0.pending == 0 && $0.results.isEmpty } }

    /// Blocks until every requested decode has finished.
    public func waitUntilIdle() { queue.waitUntilAllOperationsAreFinished() }
}
