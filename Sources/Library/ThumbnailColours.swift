import Foundation
import SystemPackage
import Threads

/// Thumbnails' mean colours on their way into the library index (`LibraryIndex.recordColours`), a batch at a time:
/// a grid filling its cells writes a transaction for each 32 colours (or for the colours of the last second, at the
/// next one), not one a cell. What is pending when the run ends is learnt again next time.
public final class ThumbnailColours: Sendable {
    private let index: LibraryIndex
    private let pending = Locked<(colours: [(path: [UInt8], colour: UInt32)], since: Double)>(([], 0))
    static let batch = 32
    static let wait = 1.0

    public init(index: LibraryIndex) { self.index = index }

    /// Photo `path`'s thumbnail's mean colour (0xRRGGBB), from any thread.
    public func add(_ path: FilePath, _ colour: UInt32) {
        let now = ProcessInfo.processInfo.systemUptime
        let due: [(path: [UInt8], colour: UInt32)] = pending.withLock { pending in
            if pending.colours.isEmpty { pending.since = now }
            pending.colours.append((path.bytes, colour))
            guard pending.colours.count >= Self.batch || now - pending.since >= Self.wait else { return [] }
            defer { pending.colours = [] }
            return pending.colours
        }
        index.recordColours(due)
    }

    /// Writes what is pending now.
    public func flush() {
        index.recordColours(pending.withLock { pending in
            defer { pending.colours = [] }
            return pending.colours
        })
    }
}
