import App
import Foundation
import Geometry
import Grid
import Imaging
import Library
import Logging
import Outputs
import Pixels
import Rendering
import SceneGraph
import Threads

/// The grid's first screen kept between launches of the window (`GridSnapshotStore`): a launch with
/// the same window size, scale, colours and first photos shows those cells at once as the last launch
/// left them, each unchanged file's cell until its thumbnail comes (drawn from that thumbnail, the same
/// pixels). Once the first screen shows its own thumbnails, its cells are rendered and written on a
/// thread of their own, unless they are the ones that were shown.
final class LaunchGridSnapshot {
    private let store: GridSnapshotStore
    private let key: [UInt8]
    private let scale: Double
    /// The window's size the key was made for, in points.
    private let size: Size
    private let logger: Logger
    /// The photos whose cells were shown from the snapshot.
    private var shown: Set<Int> = []
    /// Whether the first screen was seen complete (and written if it had to be).
    private var settled = false

    init(store: GridSnapshotStore, app: PhotoViewerApp, scale: Double, colour: ColourTarget, logger: Logger) {
        self.store = store
        self.scale = scale
        self.logger = logger
        size = app.size
        key = Self.key(size: app.size, scale: scale, colour: colour.name, photos: app.firstScreenPhotos)
    }

    /// What decides the first screen's pixels: the window's size and scale, the colour space, and the
    /// first screen's photos in order.
    static func key(size: Size, scale: Double, colour: String, photos: ArraySlice<Photo>) -> [UInt8] {
        var key = Array("\(size.width)x\(size.height)@\(scale) \(colour)\n".utf8)
        for photo in photos {
            key += photo.file.bytes + [0]
        }
        return key
    }

    /// Shows the kept cells whose files are unchanged.
    func show(in app: PhotoViewerApp) {
        let photos = app.firstScreenPhotos   // indexed as the whole library
        let cells = store.read(key: key) { photos.indices.contains($0) ? photos[$0].file : nil }
        guard !cells.isEmpty else { return }
        shown = Set(cells.keys)
        app.showLastSeen(cells)
        logger.debug("the grid's first screen as last seen: \(cells.count) of \(photos.count) cells")
    }

    /// After each frame: once the first screen shows its own thumbnails, writes its cells if they are
    /// not the ones shown from the snapshot.
    func keepWhenComplete(_ app: PhotoViewerApp) {
        guard !settled, let cells = app.firstScreenShown else { return }
        settled = true
        // A window the window manager sized otherwise than asked (a tiling one) has no first screen a
        // launch could show before it is mapped: none is written.
        guard app.size == size, Set(cells.map(\.index)) != shown else { return }
        // A cell drawn across a pixel's edge (a fractional scale) is drawn with its neighbours' help:
        // on its own it would not look the same.
        func whole(_ v: Double) -> Bool { abs((v * scale).rounded() - v * scale) < 1e-9 }
        guard cells.allSatisfy({ whole($0.frame.minX) && whole($0.frame.minY) && whole($0.frame.width) && whole($0.frame.height) }) else { return }
        let jobs = cells.compactMap { cell in
            GridSnapshotStore.FileIdentity(cell.photo.file).map { (cell.index, $0, cell.thumbnail, cell.badge, cell.frame.size) }
        }
        let (store, key, pixelScale, logger) = (store, key, scale, logger)
        Worker.start(named: "photozoom-snapshot") {
            let renderer = SceneRenderer()
            var kept: [GridSnapshotStore.Cell] = []
            for (index, file, thumbnail, badge, size) in jobs {
                let cell = GridCellNode.make(size: size, showing: thumbnail, badge: badge)
                guard let pixels = try? renderer.render(cell, width: Int((size.width * pixelScale).rounded()),
                                                        height: Int((size.height * pixelScale).rounded()), scale: pixelScale) else { continue }
                kept.append(GridSnapshotStore.Cell(index: index, file: file, pixels: pixels))
            }
            do {
                try store.write(kept, key: key)
                logger.debug("kept the grid's first screen (\(kept.count) cells) for the next launch")
            } catch {
                logger.debug("the grid's first screen could not be kept in \(store.folder): \(error)")
            }
        }
    }
}
