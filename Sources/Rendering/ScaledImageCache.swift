import Cairo
import CCairo
import Imaging
import Pixels
import Threads

/// How the renderer gets a pre-scaled level it does not have yet.
public enum LevelMaking {
    /// Made there and then, in the frame (headless renders and tests: every frame is exact).
    case inPlace
    /// Made on a worker thread; until it arrives the frame draws from a larger level with a cheap
    /// filter, and `wake` tells the frame loop when it is there (the window).
    case inBackground(wake: @Sendable () -> Void)
}

/// A copy of a picture: halved `k` times, or scaled to an exact size.
enum LevelKey: Hashable, Sendable {
    case halved(Int)
    case exact(width: Int, height: Int)
}

/// Pre-scaled copies of the photos a scene shows, so that a frame never filters a full-size photo.
///
/// Each photo gets a chain of halvings (full, 1/2, 1/4 …), each made once with an area filter; a
/// frame draws from the smallest copy that is still at least as large as the target, so Cairo only
/// ever shrinks by less than 2× with a cheap bilinear filter. The originals belong to their owners
/// and are held weakly: a photo its owner let go loses its copies at the next draw. Copies not
/// drawn for `maxIdleDraws` draws are dropped, and all copies together stay within `byteLimit`.
///
/// A small picture (a thumbnail) drawn smaller gets a copy of exactly that size, the first time there
/// and then, later at a new size once it holds for two draws running (a cell at rest, not a copy in
/// flight), which the renderer then copies 1:1 with no filter: a grid frame costs little more than
/// its memory traffic.
final class ScaledImageCache {
    /// Memory for copies, in bytes.
    let byteLimit: Int
    /// Draws an entry may go unused before its copies are dropped (about a second at 60 Hz).
    let maxIdleDraws: Int
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Counts draws (`beginDraw`).
    private var draw = 0
    /// The last draw asked for an exact copy for the first time: one more draw at rest makes it.
    private(set) var wantsAnotherDraw = false
    /// Bytes held in copies.
    private(set) var copiedBytes = 0
    /// Counts the choices that stand in for a copy still to come (drawn for now with a cheaper filter,
    /// or as the copy will be): a frame that made any is not final.
    private(set) var provisionalChoices = 0
    private let builder: LevelBuilder?
    /// Makes the exact copies, below the decoders' priority.
    private let exactBuilder: LevelBuilder?

    private final class Entry {
        weak var original: PixelImage?
        /// The copies made so far (halvings k ≥ 1, exact sizes); made on demand.
        var levels: [LevelKey: Level] = [:]
        /// Levels asked of the builder and not arrived yet.
        var pending: Set<LevelKey> = []
        /// Of those, the ones asked ahead of any frame that needs them: their arrival redraws nothing.
        var ahead: Set<LevelKey> = []
        /// The width the picture was last drawn at, device px (0: not yet; its first draw may be growing).
        var lastTargetWidth = 0.0
        var lastUse = 0
        /// The exact size the last draw asked for, and when.
        var lastExactAsk: (size: LevelKey, draw: Int)?
        init(original: PixelImage) { self.original = original }
    }

    /// An image to draw from, with a Cairo surface over its pixels.
    final class Level {
        let image: PixelImage
        let surface: OpaquePointer
        init(_ image: PixelImage) throws(CairoError) { self.image = image; surface = try image.makeSourceSurface() }
        deinit { cairo_surface_destroy(surface) }
    }

    /// What a frame draws from: the right level, or a larger stand-in while it is being made.
    struct Choice {
        let level: Level
        let isStandIn: Bool
        /// The picture itself, standing in for an exact copy of the target's size (asked for, or to be
        /// once the size holds): drawn as that copy will be, so that nothing changes when it comes.
        var drawsAsExactCopy = false
    }

    init(byteLimit: Int = 96 << 20, maxIdleDraws: Int = 60, making: LevelMaking = .inPlace) {
        self.byteLimit = byteLimit
        self.maxIdleDraws = maxIdleDraws
        if case .inBackground(let wake) = making {
            builder = LevelBuilder(wake: wake)
            exactBuilder = LevelBuilder(wake: wake, threadPriority: LevelBuilder.backgroundThreadPriority)
        } else {
            builder = nil
            exactBuilder = nil
        }
    }

    /// How many photos have copies, and how many copies in all.
    var counts: (photos: Int, copies: Int) { (entries.count, entries.values.reduce(0) { $0 + $1.levels.count }) }

    /// Whether no level is being made or waits to be taken.
    var isIdle: Bool { (builder?.isIdle ?? true) && (exactBuilder?.isIdle ?? true) }

    /// A photo (larger than a thumbnail) at rest or shrinking is given ahead the halving that a frame
    /// drawn for speed would draw it from once shrunk by this factor (at 4K a 4000 px photo shown
    /// 2880 wide, pulled down: the pull's first frame, drawn for speed from the whole picture while
    /// that halving was made, gathered from 48 MB and took 6–9 ms, against 2–4 from the halving).
    static let shrinkAhead = 0.9

    /// Pictures up to this many px a side get copies of exact sizes (thumbnails, EXIF placeholders).
    static let exactMaxSide = 1024

    /// A copy of `original`: halved `k` times with an area filter, or at an exact size (less than
    /// halving) with the bilinear filter a frame would have drawn it with, so it looks the same.
    static func makeLevel(_ key: LevelKey, of original: PixelImage) throws(CairoError) -> PixelImage {
        switch key {
        case .halved(let k): try original.scaled(toWidth: max(1, original.width >> k), height: max(1, original.height >> k))
        case .exact(let w, let h): try original.scaled(toWidth: max(1, w), height: max(1, h), bilinear: true)
        }
    }

    /// The first Cairo failure since it was last taken: what failed was not drawn (or a larger copy
    /// was), and the frame went on.
    private(set) var failure: CairoError?

    func takeFailure() -> CairoError? {
        defer { failure = nil }
        return failure
    }

    /// `image` as a level to draw from; nil (the failure kept) when Cairo can't make its surface.
    private func level(of image: PixelImage) -> Level? {
        do throws(CairoError) {
            return try Level(image)
        } catch {
            if failure == nil { failure = error }
            return nil
        }
    }

    /// Before a frame: takes the levels made since the last one. True when any arrived.
    @discardableResult
    func beginDraw() -> Bool {
        draw += 1
        wantsAnotherDraw = false
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
        guard let builder, let exactBuilder else { return false }
        var any = false
        for made in builder.takeMade() + exactBuilder.takeMade() {
            guard let entry = entries[made.key], let original = made.original, entry.original === original else { continue }
            entry.pending.remove(made.level)
            let asked = entry.ahead.remove(made.level) == nil
            let image: PixelImage
            switch made.image {
            case .success(let copy): image = copy
            case .failure(let error):
                if failure == nil { failure = error }
                continue
            }
            if entry.levels[made.level] == nil, let level = level(of: image) {
                store(level, as: made.level, in: entry)
                any = any || asked
            }
        }
        return any
    }

    /// The copy to draw `image` from at `targetWidth`×`targetHeight` device pixels: the smallest at
    /// least that large, or with `nearest` (a frame drawn for speed) the one nearest in scale, even if
    /// smaller. `exact` makes a missing level there and then, even with a builder (an exported frame
    /// is never a stand-in). Nil when Cairo can't give even the picture itself a surface (`failure`).
    func level(for image: PixelImage, targetWidth: Double, targetHeight: Double, nearest: Bool = false,
               exact: Bool = false) -> Choice? {
        var k = 0
        while Double(image.width >> (k + 1)) >= targetWidth, Double(image.height >> (k + 1)) >= targetHeight,
              image.width >> (k + 1) > 0, image.height >> (k + 1) > 0 {
            k += 1
        }
        if nearest, image.width >> (k + 1) > 0, image.height >> (k + 1) > 0,
           targetWidth / Double(image.width >> (k + 1)) < Double(image.width >> k) / targetWidth {
            k += 1
        }
        if !exact, image.width > Self.exactMaxSide || image.height > Self.exactMaxSide {
            askAhead(for: image, at: targetWidth, drawnFrom: k)
        }
        guard k > 0 else {
            return exactCopy(of: image, targetWidth: targetWidth, targetHeight: targetHeight, speed: nearest, exact: exact)
        }

        let entry = self.entry(for: image)
        let key = LevelKey.halved(k)
        if let level = entry.levels[key] { return Choice(level: level, isStandIn: false) }
        guard builder != nil, !exact else {
            return make(key, of: image, in: entry).map { Choice(level: $0, isStandIn: false) }
        }
        request(key, of: image, in: entry)
        entry.ahead.remove(key)
        provisionalChoices += 1
        // The nearest larger level there is stands in.
        guard let standIn = (1..<k).reversed().lazy.compactMap({ entry.levels[.halved($0)] }).first ?? level(of: image) else { return nil }
        return Choice(level: standIn, isStandIn: true)
    }

    /// A small picture drawn smaller: its copy of exactly that size. A picture's first such draw makes
    /// it there and then (a thumbnail just arrived in its cell: the copy costs about what drawing the
    /// picture scaled would, and the cell never changes again, where a stand-in replaced by its copy
    /// changed by a level or two); at a new size later (a resize, a copy in flight) once the size holds
    /// for two draws (at once for an exported frame), made by the worker, and until then the picture
    /// itself, drawn as the copy will be (`drawsAsExactCopy`).
    private func exactCopy(of image: PixelImage, targetWidth: Double, targetHeight: Double, speed: Bool, exact: Bool) -> Choice? {
        let plain = level(of: image).map { Choice(level: $0, isStandIn: false) }
        guard !speed, image.width <= ScaledImageCache.exactMaxSide, image.height <= ScaledImageCache.exactMaxSide,
              Double(image.width) > targetWidth + 2 || Double(image.height) > targetHeight + 2 else { return plain }
        let size = LevelKey.exact(width: Int(targetWidth.rounded()), height: Int(targetHeight.rounded()))
        let entry = self.entry(for: image)
        if let level = entry.levels[size] { return Choice(level: level, isStandIn: false) }
        let standIn = plain.map { Choice(level: $0.level, isStandIn: false, drawsAsExactCopy: true) }
        let firstAsk = entry.lastExactAsk == nil
        let held = entry.lastExactAsk.map { $0.size == size && $0.draw == draw - 1 } ?? false
        entry.lastExactAsk = (size, draw)
        if builder == nil || exact || firstAsk {
            return make(size, of: image, in: entry).map { Choice(level: $0, isStandIn: false) } ?? standIn
        }
        if held { request(size, of: image, in: entry) } else { wantsAnotherDraw = true }
        provisionalChoices += 1
        return standIn
    }

    /// `image` would be drawn at `targetWidth`×`targetHeight` device pixels wholly outside the frame's
    /// clip (a cell scrolled out of the grid's view): nothing is made for it in the frame, which shows
    /// none of it, but a small picture's copy of that size is asked of the worker, ready for when it
    /// scrolls in. (Made in the frame, the copies of the rows above the view, whose thumbnails came
    /// while the window was idle, cost the 4K frame of the tap that opened a photo 30 ms.)
    func prepare(_ image: PixelImage, targetWidth: Double, targetHeight: Double) {
        let entry = self.entry(for: image)
        guard builder != nil, image.width <= ScaledImageCache.exactMaxSide, image.height <= ScaledImageCache.exactMaxSide,
              Double(image.width) > targetWidth + 2 || Double(image.height) > targetHeight + 2,
              targetWidth >= 1, targetHeight >= 1 else { return }
        let size = LevelKey.exact(width: Int(targetWidth.rounded()), height: Int(targetHeight.rounded()))
        if entry.levels[size] == nil { request(size, of: image, in: entry) }
    }

    /// `images` were shown this draw without being drawn (from a kept copy of their subtree): their
    /// copies stay, ready for when the subtree is drawn again.
    func keep(_ images: some Sequence<ObjectIdentifier>) {
        for image in images { entries[image]?.lastUse = draw }
    }

    /// The entry of `image`, made if new (or if a dead image's address came back), marked as drawn now.
    private func entry(for image: PixelImage) -> Entry {
        let key = ObjectIdentifier(image)
        let entry: Entry
        if let known = entries[key], known.original === image {
            entry = known
        } else {
            remove(key)
            entry = Entry(original: image)
            entries[key] = entry
        }
        entry.lastUse = draw
        return entry
    }

    /// Makes a copy in the frame; nil (the failure kept) when Cairo can't.
    private func make(_ key: LevelKey, of image: PixelImage, in entry: Entry) -> Level? {
        let copy: PixelImage
        do throws(CairoError) {
            copy = try ScaledImageCache.makeLevel(key, of: image)
        } catch {
            if failure == nil { failure = error }
            return nil
        }
        guard let made = level(of: copy) else { return nil }
        store(made, as: key, in: entry)
        return made
    }

    /// Keeps a copy. A picture is shown at one size at rest: an exact copy replaces the entry's
    /// others (after each resize of the window, the cells' old sizes would otherwise pile up).
    private func store(_ level: Level, as key: LevelKey, in entry: Entry) {
        if case .exact = key {
            for case let (old, copy) in entry.levels {
                guard case .exact = old else { continue }
                entry.levels[old] = nil
                copiedBytes -= copy.image.stride * copy.image.height
            }
        }
        entry.levels[key] = level
        copiedBytes += level.image.stride * level.image.height
    }

    /// A photo drawn from halving `k` at `targetWidth`, no larger than at its last draw (at rest, or
    /// shrinking): the next halving is asked for ahead when a frame drawn for speed would draw from it
    /// once the photo shrinks by `shrinkAhead`. Its arrival asks for no frame.
    private func askAhead(for image: PixelImage, at targetWidth: Double, drawnFrom k: Int) {
        let entry = self.entry(for: image)
        defer { entry.lastTargetWidth = targetWidth }
        let next = image.width >> (k + 1), key = LevelKey.halved(k + 1)
        let shrunk = targetWidth * Self.shrinkAhead
        guard builder != nil, next > 0, image.height >> (k + 1) > 0, targetWidth <= entry.lastTargetWidth + 0.5,
              shrunk / Double(next) < Double(image.width >> k) / shrunk,
              entry.levels[key] == nil, !entry.pending.contains(key) else { return }
        request(key, of: image, in: entry)
        entry.ahead.insert(key)
    }

    /// Asks a builder for a copy, once.
    private func request(_ level: LevelKey, of image: PixelImage, in entry: Entry) {
        guard let builder, let exactBuilder, entry.pending.insert(level).inserted else { return }
        let job = LevelBuilder.Job(key: ObjectIdentifier(image), original: image, level: level)
        if case .exact = level { exactBuilder.request(job) } else { builder.request(job) }
    }

    private func remove(_ key: ObjectIdentifier) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        for level in entry.levels.values { copiedBytes -= level.image.stride * level.image.height }
    }
}
