import Geometry
import Grid
import Imaging
import Library
import Logging
import Pixels

/// Which grid thumbnails are decoded: the cells in view first, then a screen above and below; the
/// ones far out of sight are let go (and requests passed by on a fling withdrawn), so memory
/// follows the window, not the folder. A file that fails is reported once and not tried again. A
/// placeholder (a photo's embedded EXIF thumbnail) shows in its cell until the thumbnail arrives.
final class GridThumbnails {
    /// Thumbnails are decoded to cover at least this many points a side: the largest cell the width
    /// alone gives (fewer columns chosen by a pinch make larger cells: they are covered too).
    static let side = GridLayout.maxCell
    /// Thumbnails made for larger cells are made again once the cells are smaller than this share of them.
    static let shrinkBelow = 2.0 / 3
    /// Decoded for the cells on screen and this many screens above and below…
    static let prefetchScreens = 1.0
    /// …and dropped again once this many screens away.
    static let keepScreens = 4.0

    private enum State: Equatable { case none, requested(DecodeQueue.Priority), loaded, failed }

    let queue: DecodeQueue
    private let grid: GridScreen
    private var photos: [Photo]
    private let logger: Logger
    /// Told of each photo found to move.
    var onAnimated: (Int) -> Void = { _ in }
    /// Told of each Motion Photo's movie a thumbnail's decode found (or its cache entry recorded).
    var onMotion: (Int, EmbeddedMovie) -> Void = { _, _ in }
    /// Device pixels a point. A new one (the window moved to another output) asks again for the
    /// thumbnails near the view, for the new pixels; each cell shows its old one until then.
    var pixelScale: Double {
        didSet {
            guard pixelScale != oldValue else { return }
            askAgainForNewPixels()
        }
    }

    /// The thumbnails near the view are asked for again, for the pixels `sidePixels` now says; each
    /// cell shows its old one until then.
    private func askAgainForNewPixels() {
        for i in requested {
            queue.withdraw(.thumbnail, index: i)
            states[i] = .none
        }
        requested = []
        for i in loaded { states[i] = .none }
        superseded = loaded
        loaded = []
        update()
        // Cells not asked again (far from the view) let their old thumbnail go, as far cells do.
        for i in superseded where states[i] == .none {
            grid.setThumbnail(waiting(i), at: i)
            superseded.remove(i)
        }
    }

    /// Cells showing a thumbnail made for the old pixels until the new one comes (no placeholder
    /// replaces it: it is sharper).
    private var superseded: Set<Int> = []

    /// The side thumbnails are decoded to cover, points: at least `side`, and the cells' since they grew past it.
    private var sidePoints = GridThumbnails.side
    /// The side thumbnails are decoded to cover, px.
    private var sidePixels: Int { Int((sidePoints * pixelScale).rounded(.up)) }
    private var states: [State]
    private var loaded: Set<Int> = []
    private var requested: Set<Int> = []
    /// Photos whose damage was said (a truncated file shows its part, and is named once).
    private var named: Set<Int> = []

    init(grid: GridScreen, photos: [Photo], queue: DecodeQueue, pixelScale: Double, logger: Logger) {
        self.grid = grid
        self.pixelScale = pixelScale
        self.photos = photos
        self.queue = queue
        self.logger = logger
        states = Array(repeating: .none, count: photos.count)
        grid.clipCount = photos.count(where: \.isClip)
    }

    /// Asks for the wanted thumbnails and lets the far ones go (after a scroll or a resize).
    func update() {
        // Cells grown past the thumbnails (a pinch to fewer columns, once it has settled): sharper ones;
        // shrunk well below them again: smaller ones, so that memory follows the cells (large thumbnails
        // kept for small cells held 11 MiB more for the 15 bundled photos, and 7× the pixels in a large
        // folder). Between the two, a resize asks for nothing.
        let pitch = grid.layout.pitch
        if !grid.isChangingColumns, pitch > sidePoints || sidePoints > GridThumbnails.side && pitch < sidePoints * GridThumbnails.shrinkBelow {
            sidePoints = max(GridThumbnails.side, pitch.rounded(.up))
            return askAgainForNewPixels()
        }
        let visible = grid.indices(withinScreens: 0)
        let wanted = grid.indices(withinScreens: GridThumbnails.prefetchScreens)
        let side = sidePixels
        for i in wanted {
            let priority: DecodeQueue.Priority = visible.contains(i) ? .visible : .prefetch
            // Asked again as it scrolls into view: the waiting request takes the higher priority.
            guard states[i] == .none || states[i] == .requested(.prefetch) && priority == .visible else { continue }
            // Until its thumbnail comes, its colour: a scrub through thousands of photos shows them at once.
            if states[i] == .none, photos[i].colour != nil, !grid.showsLastSeen(i), grid.cell(at: i).image == nil {
                grid.setThumbnail(waiting(i), at: i)
            }
            states[i] = .requested(priority)
            requested.insert(i)
            queue.request(.thumbnail, index: i, path: photos[i].file, covering: PixelSize(width: side, height: side),
                          priority: priority, movement: photos[i].movement, learnsColour: photos[i].colour == nil)
        }
        let kept = grid.indices(withinScreens: GridThumbnails.keepScreens)
        for i in loaded where !kept.contains(i) {
            grid.setThumbnail(waiting(i), at: i)
            states[i] = .none
            loaded.remove(i)
        }
        for i in requested where !kept.contains(i) {
            superseded.remove(i)
            queue.withdraw(.thumbnail, index: i)
            grid.setThumbnail(waiting(i), at: i)   // it may show a placeholder
            states[i] = .none
            requested.remove(i)
        }
    }

    /// Photo `i`'s file changed: its thumbnail is made again (if it is near the view), its cell showing the
    /// old one until then; a photo that failed is tried again, and its damage said again.
    func reload(_ i: Int) {
        photos[i].colour = nil   // the old file's
        queue.forget(index: i)
        requested.remove(i)
        named.remove(i)
        if loaded.remove(i) != nil { superseded.insert(i) }
        if states[i] == .failed { grid.setThumbnail(waiting(i), at: i) }
        states[i] = .none
        update()
        // Far from the view: not asked again, it lets its old thumbnail go as far cells do.
        if superseded.contains(i), states[i] == .none {
            grid.setThumbnail(waiting(i), at: i)
            superseded.remove(i)
        }
    }

    /// The photos are about to change: the requests, which name old places, are let go (all of the queue's
    /// requests are, before any is made for a new place: a place's number may be another photo's now).
    func forgetRequests() {
        for i in requested { queue.forget(index: i) }
        requested = []
    }

    /// The photos changed (`GridScreen.applyChange`): photo `i` is the one that was `origins[i]` (nil: new).
    /// Thumbnails in place stay; the ones asked for (`forgetRequests`) are asked for again in their new places.
    /// `clips`: how many of them are clips, when known (nil: counted here).
    func listChanged(to photos: [Photo], origins: [Int?], clips: Int? = nil) {
        // The title bar counts them ("200 photos, 50 videos"); covers and cards are counted as themselves.
        grid.clipCount = grid.contents != .photos ? 0 : clips ?? photos.count(where: \.isClip)
        var newOf: [Int: Int] = [:]
        for (i, origin) in origins.enumerated() { if let origin { newOf[origin] = i } }
        func moved(_ old: Set<Int>) -> Set<Int> { Set(old.compactMap { newOf[$0] }) }
        states = origins.indices.map { i in
            guard let origin = origins[i], states[origin] == .loaded || states[origin] == .failed else { return .none }
            // One that failed under another name is tried again under its new one: its file may have moved as it was
            // read (a folder renamed while its thumbnails were made).
            if states[origin] == .failed, self.photos[origin].file != photos[i].file { return .none }
            return states[origin]
        }
        loaded = moved(loaded)
        superseded = moved(superseded)
        named = moved(named)
        self.photos = photos
        // Other cells altogether (another view, an album): thumbnails for their size, whatever the cells before.
        if origins.allSatisfy({ $0 == nil }) { sidePoints = max(GridThumbnails.side, grid.layout.pitch.rounded(.up)) }
        update()
    }

    /// The cells of the first screen (where a launch opens the grid: its top, or a timeline's end) by index.
    var firstScreen: Range<Int> {
        grid.layout.indices(inContentRangeFrom: grid.openingOffset, to: grid.openingOffset + grid.size.height)
    }

    /// Shows cells' pixels as a launch before left them (`GridScreen.Thumbnail.lastSeen`), each until
    /// its thumbnail comes.
    func showLastSeen(_ pixels: [Int: PixelImage]) {
        for (i, image) in pixels where states.indices.contains(i) && states[i] != .loaded && states[i] != .failed {
            grid.setThumbnail(.lastSeen(image), at: i)
        }
    }

    /// The first screen's cells with their thumbnails and badges ("0:14"), once each shows its own, at rest and in
    /// view: what a later launch can show at once. Nil until then. Cells with a ⚠, or a thumbnail that is not opaque,
    /// are left out.
    var firstScreenShown: [(index: Int, thumbnail: PixelImage, badge: String?, frame: Rect)]? {
        // A grid pinched to other columns is not what the next launch opens on.
        guard grid.scrollOffset == grid.openingOffset, grid.chosenColumns == nil, isViewComplete else { return nil }
        return firstScreen.compactMap { i in
            guard states[i] == .loaded, let picture = grid.picture(at: i), picture.isOpaque else { return nil }
            return (i, picture, grid.badgeText(i), grid.cell(at: i).frame)
        }
    }

    /// What photo `i`'s cell shows while its thumbnail is on its way: its colour, when the library knows it.
    private func waiting(_ i: Int) -> GridThumbnail { photos[i].colour.map { .colour($0) } ?? .loading }

    /// Whether photo `i`'s thumbnail could not be made.
    func hasFailed(_ i: Int) -> Bool { states[i] == .failed }

    /// Whether every cell in view shows its thumbnail (or its ⚠).
    var isViewComplete: Bool { grid.indices(withinScreens: 0).allSatisfy { states[$0] == .loaded || states[$0] == .failed } }

    /// Whether every cell in view shows a picture, if only a placeholder (or its ⚠).
    var isViewFilled: Bool {
        grid.indices(withinScreens: 0).allSatisfy { grid.cell(at: $0).image != nil || states[$0] == .failed }
    }

    /// Whether any cell shows a picture, if only a placeholder.
    var hasAny: Bool { !loaded.isEmpty || requested.contains { grid.cell(at: $0).image != nil } }

    /// Puts finished thumbnails into their cells and logs the ones that failed: whether any arrived, and
    /// whether any in the grid's view (the ones a screen away, prefetched, change nothing there).
    func applyFinished() -> (any: Bool, inView: Bool) {
        let results = queue.takeFinished(.thumbnail)
        let visible = grid.indices(withinScreens: 0)
        for result in results {
            let i = result.index
            if result.isPlaceholder {
                // Not over the cell's pixels as last seen: they are sharper, and its thumbnail's own.
                if case .requested = states[i], !grid.showsLastSeen(i), !superseded.contains(i), case .success(let image) = result.outcome {
                    grid.setThumbnail(.loaded(image), at: i)
                    placeBadge(result, at: i)
                }
                continue
            }
            // One asked for before the scale changed: the one for the new pixels is on its way.
            guard result.covering.width == sidePixels else { continue }
            requested.remove(i)
            superseded.remove(i)
            switch result.outcome {
            case .success(let image):
                // A request withdrawn while its decode ran: let it go (it is far out of view).
                guard case .requested = states[i] else { continue }
                if let problem = result.problem, named.insert(i).inserted { logger.warning("\(photos[i].path): \(problem)") }
                grid.setThumbnail(.loaded(image), at: i)
                if photos[i].colour == nil { photos[i].colour = image.meanColour }   // as the queue keeps it in the index
                grid.cell(at: i).contentsName = photos[i].name
                placeBadge(result, at: i)
                states[i] = .loaded
                loaded.insert(i)
            case .failure(let error):
                guard case .requested = states[i] else { continue }
                logger.warning("\(photos[i].path): \(error)")
                grid.setThumbnail(.failed, at: i)
                states[i] = .failed
            }
        }
        return (!results.isEmpty, results.contains { visible.contains($0.index) })
    }

    /// An animated photo's cell shows its first frame with its format in a badge ("GIF"); a clip's, its poster with
    /// its length ("0:14"); a Live Photo's and a Motion Photo's, its still with "LIVE".
    private func placeBadge(_ result: DecodeQueue.Result, at i: Int) {
        if let clip = result.clip { return grid.setBadge(clip.durationText, at: i) }
        if photos.indices.contains(i), photos[i].motion != nil { return grid.setBadge("LIVE", at: i) }
        if let movie = result.motion {
            grid.setBadge("LIVE", at: i)
            return onMotion(i, movie)
        }
        guard let format = result.movingFormat else { return }
        grid.setBadge(format.name.uppercased(), at: i)
        onAnimated(i)
    }
}
