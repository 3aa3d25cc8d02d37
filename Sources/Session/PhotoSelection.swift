import App
import Foundation
import Imaging
import Library
import Logging
import SystemPackage

/// What the runs show: the photos, what to say when there are none, and the photo to start on.
public struct PhotoSelection {
    let photos: [Photo]
    let emptyMessage: String
    let opening: Int?
    /// The user's favorites (their marks shown on these photos, and kept when changed).
    var favorites: Favorites?
    /// The folders whose changes the photos follow: a tree's every folder; the folder of a file.
    var folders: Set<FilePath> = []
    /// The walk that confirms photos shown as the index remembered them (nil: they were walked).
    var confirmation: LibraryConfirmation?
    /// Where the thumbnails' colours are kept (a tree's photos, through the index).
    var thumbnailColours: ThumbnailColours?

    /// The photos looked at for `formatsAhead` at either end of the timeline.
    static let aheadCount = 2_000

    /// The formats the photos a grid or the viewer opens on are named as: the one to start on, and those at either
    /// end of the timeline (where a grid opens, scrolled to its newest). What the decoders are made ready for.
    public var formatsAhead: Set<ImageFormat> {
        var names = photos.prefix(Self.aheadCount).map(\.name) + photos.suffix(Self.aheadCount).map(\.name)
        if let opening, photos.indices.contains(opening) { names.append(photos[opening].name) }
        return Set(names.compactMap(ImageFormat.named))
    }

    /// The photos the PATHs name (`photos(for:index:logger:)`), with the user's favorites. `rememberedFrom`:
    /// a tree the index knows at least this many photos of is shown as it remembers them, and walked meanwhile
    /// (`confirmation`); nil: every tree is walked first (a headless run, the same every time).
    public static func collect(_ arguments: [FilePath], logger: Logger, rememberedFrom: Int? = nil) -> PhotoSelection {
        // What earlier launches learnt of the trees (a cache: a run goes on without it), opened for a tree, once.
        var opened: LibraryIndex??
        let index = {
            if opened == nil { opened = .some(LibraryIndex.defaultFile().flatMap { LibraryIndex.open($0) { logger.warning("\($0)") } }) }
            return opened ?? nil
        }
        var selection = rememberedFrom.flatMap { remembered(arguments, from: $0, index: index, logger: logger) }
            ?? photos(for: arguments, index: index, logger: logger)
        selection.thumbnailColours = (opened ?? nil).map(ThumbnailColours.init(index:))
        selection.favorites = Favorites.defaultFile().map { Favorites(file: $0) { logger.warning("\($0)") } }
        return selection
    }

    /// A window opens a tree the index knows at least this many photos of as it remembers them (below it, the
    /// walk takes under ~50 ms): 1,000, or `PHOTOZOOM_INDEX_FIRST_FROM` (what a test of small trees sets).
    public static func rememberedFrom(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        environment["PHOTOZOOM_INDEX_FIRST_FROM"].flatMap { Int($0) }.map { max($0, 1) } ?? 1000
    }

    /// One folder's tree as the index remembers it, when it knows at least `count` photos of it.
    private static func remembered(_ arguments: [FilePath], from count: Int, index: () -> LibraryIndex?, logger: Logger) -> PhotoSelection? {
        let started = ContinuousClock.now
        guard arguments.count == 1, let opened = index(),
              let remembered = RememberedTimeline.read(under: arguments[0], index: opened, atLeast: count) else { return nil }
        logger.debug("library: \(remembered.photos.count) photos as the index remembers them, in \(milliseconds(since: started)) ms; the tree is walked meanwhile")
        let confirmation = LibraryConfirmation(remembered: remembered) {
            let walked = Self.photos(for: arguments, index: { opened }, remembered: remembered, logger: logger)
            return (walked.photos, walked.folders)
        }
        // The folders are followed once the walk has listed them (what changes before, it finds).
        return PhotoSelection(photos: remembered.photos, emptyMessage: "\(arguments[0]) has no images", opening: nil, confirmation: confirmation)
    }

    /// `remembered`: the timeline shown meanwhile, what the walk confirms.
    private static func photos(for arguments: [FilePath], index: () -> LibraryIndex?, remembered: RememberedTimeline? = nil,
                               logger: Logger) -> PhotoSelection {
        if arguments.isEmpty {
            guard let bundled = BundledPhotos.folder() else {
                logger.warning("the bundled photos were not found; pass a file or folder, or set PHOTOZOOM_IMAGES")
                return PhotoSelection(photos: [], emptyMessage: "The bundled photos were not found", opening: nil)
            }
            let (photos, problems) = PhotoLibrary.photos(inFolder: FilePath(bundled))
            for problem in problems { logger.warning("\(problem)") }
            return PhotoSelection(photos: photos, emptyMessage: "\(bundled) has no images", opening: nil, folders: [FilePath(bundled)])
        }
        let empty = arguments.count == 1 ? "\(arguments[0]) has no images" : "None of the paths has images"
        if arguments.count == 1, let around = PhotoLibrary.folder(around: arguments[0]) {
            for problem in around.problems { logger.warning("\(problem)") }
            return PhotoSelection(photos: around.photos, emptyMessage: empty, opening: around.opening,
                                  folders: Set(around.photos.prefix(1).map { $0.file.removingLastComponent() }))
        }
        let started = ContinuousClock.now
        var folders: Set<FilePath> = []
        let (photos, problems) = PhotoLibrary.collect(arguments, index: index(), remembered: remembered, listed: { folders.formUnion($0) }) { indexing in
            let gone = indexing.forgotten > 0 ? " (\(indexing.forgotten) gone since, forgotten)" : ""
            logger.debug("library: in \(milliseconds(since: started)) ms, photos read and from the index: \(indexing.read) \(indexing.fromIndex)\(gone)")
        }
        for problem in problems { logger.warning("\(problem)") }
        // Files named on their own (a tree's photos have dates): their folders too (a file saved over is shown anew).
        folders.formUnion(photos.lazy.filter { $0.date == nil }.map { $0.file.removingLastComponent() }.map { $0.isEmpty ? FilePath(".") : $0 })
        return PhotoSelection(photos: photos, emptyMessage: empty, opening: nil, folders: folders)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 { start.millisecondsUntilNow }
}
