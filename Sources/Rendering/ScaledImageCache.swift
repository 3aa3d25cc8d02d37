import CCairo
import Imaging
import Pixels

/// How the renderer gets a pre-scaled level it does not have yet.
public enum LevelMaking {
    /// Made there and then, in the frame (headless renders and tests: every frame is exact).
    case inPlace
    /// Made on a worker thread; until it arrives the frame draws from a larger level with a cheap
    /// filter, and `wake` tells the frame loop when it is there (the window).
    case inBackground(wake: @Sendable () -> Void)
}

/// Pre-scaled copies of the photos a scene shows, so that a frame never filters a full-size photo.
///
/// Each photo gets a chain of halvings (full, 1/2, 1/4 …), each made once with an area filter; a
/// frame draws from the smallest copy that is still at least as large as the target, so Cairo only
/// ever shrinks by less than 2× with a cheap bilinear filter. The originals belong to their owners
/// and are held weakly: a photo its owner let go loses its copies at the next draw. Copies not
/// drawn for `maxIdleDraws` draws are dropped, and all copies together stay within `byteLimit`.
final class ScaledImageCache {
    /// Memory for copies, in bytes.
    let byteLimit: Int
    /// Draws an entry may go unused before its copies are dropped (about a second at 60 Hz).
    let maxIdleDraws: Int
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Counts draws (`beginDraw`).
    private var draw = 0
    /// Bytes held in copies.
    private(set) var copiedBytes = 0
    private let builder: LevelBuilder?

    private final class Entry {
        weak var original: PixelImage?
        /// levels[k] is the original halved k times (k ≥ 1); made on demand.
        var levels: [Int: Level] = [:]
        /// Levels asked of the builder and not arrived yet.
        var pending: Set<Int> = []
        var lastUse = 0
        init(original: PixelImage) { self.original = original }
    }

    /// An image to draw from, with a Cairo surface over its pixels.
    final class Level {
        let image: PixelImage
        let surface: OpaquePointer
        init(_ image: PixelImage) { self.image = image; surface = image.makeSourceSurface() }
        deinit { cairo_surface_destroy(surface) }
    }

    /// What a frame draws from: the right level, or a larger stand-in while it is being made.
    struct Choice {
        let level: Level
        let isStandIn: Bool
    }

    init(byteLimit: Int = 96 << 20, maxIdleDraws: Int = 60, making: LevelMaking = .inPlace) {
        self.byteLimit = byteLimit
        self.maxIdleDraws = maxIdleDraws
        if case .inBackground(let wake) = making { builder = LevelBuilder(wake: wake) } else { builder = nil }
    }

    /// How many photos have copies, and how many copies in all.
    var counts: (photos: Int, copies: Int) { (entries.count, entries.values.reduce(0) { $0 + $1.levels.count }) }

    /// Whether no level is being made or waits to be taken.
    var isIdle: Bool { builder?.isIdle ?? true }

    /// Level `k` of `original`: the original halved `k` times, with an area filter.
    static func makeLevel(_ k: Int, of original: PixelImage) -> PixelImage {
        original.scaled(toWidth: max(1, original.width >> k), height: max(1, original.height >> k))
    }

    /// Before a frame: takes the levels made since the last one. True when any arrived.
    @discardableResult
    func beginDraw() -> Bool {
        draw += 1
        return takeMade()
    }

    /// After a frame: drops the copies of photos let go, or not drawn for a while, then the
    /// least recently drawn ones while over the memory bound.
    func endDraw() {
        for (key, entry) in entries where entry.original == nil || draw - entry.lastUse > maxIdleDraws {
            remove(key)
        }
        while copiedBytes > byteLimit, let (key, _) = entries.filter({ !$0.value.levels.isEmpty })
            .min(by: { $0.value.lastUse < $1.value.lastUse }) {
            remove(key)
        }
    }

    /// The levels made in the background since the last call go to their entries. True when any did.
    func takeMade() -> Bool {
        guard let builder else { return false }
        var any = false
        for made in builder.takeMade() {
            guard let entry = entries[made.key], let original = made.original, entry.original === original else { continue }
            entry.pending.remove(made.level)
            if entry.levels[made.level] == nil {
                entry.levels[made.level] = Level(made.image)
                copiedBytes += made.image.stride * made.image.height
                any = true
            }
        }
        return any
    }

    /// The copy to draw `image` from at `targetWidth`×`targetHeight` device pixels: the smallest at
    /// least that large, or with `nearest` (a frame drawn for speed) the one nearest in scale, even if
    /// smaller. `exact` makes a missing level there and then, even with a builder (an exported frame
    /// is never a stand-in).
    func level(for image: PixelImage, targetWidth: Double, targetHeight: Double, nearest: Bool = false,
               exact: Bool = false) -> Choice {
        var k = 0
        while Double(image.width >> (k + 1)) >= targetWidth, Double(image.height >> (k + 1)) >= targetHeight,
              image.width >> (k + 1) > 0, image.height >> (k + 1) > 0 {
            k += 1
        }
        if nearest, image.width >> (k + 1) > 0, image.height >> (k + 1) > 0,
           targetWidth / Double(image.width >> (k + 1)) < Double(image.width >> k) / targetWidth {
            k += 1
        }
        guard k > 0 else { return Choice(level: Level(image), isStandIn: false) }

        let key = ObjectIdentifier(image)
        let entry: Entry
        if let known = entries[key], known.original === image {
            entry = known
        } else {
            // New, or a new image at a dead one's address.
            remove(key)
            entry = Entry(original: image)
            entries[key] = entry
        }
        entry.lastUse = draw
        if let level = entry.levels[k] { return Choice(level: level, isStandIn: false) }
        guard let builder, !exact else {
            let made = Level(ScaledImageCache.makeLevel(k, of: image))
            entry.levels[k] = made
            copiedBytes += made.image.stride * made.image.height
            return Choice(level: made, isStandIn: false)
        }
        if entry.pending.insert(k).inserted { builder.request(.init(key: key, original: image, level: k)) }
        // The nearest larger level there is stands in.
        let standIn = entry.levels.filter { $0.key < k }.max { $0.key < $1.key }?.value ?? Level(image)
        return Choice(level: standIn, isStandIn: true)
    }

    private func remove(_ key: ObjectIdentifier) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        for level in entry.levels.values { copiedBytes -= level.image.stride * level.image.height }
    }
}
