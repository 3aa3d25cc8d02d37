import Library
import Logging
import SystemPackage

/// What the runs show: the photos, what to say when there are none, and the photo to start on.
public struct PhotoSelection {
    let photos: [Photo]
    let emptyMessage: String
    let opening: Int?

    /// The photos the PATHs (command-line arguments, or files dropped on the window) name; one
    /// file on its own opens in the viewer among its folder's photos. None: the bundled photos, a
    /// sample in their credits' order (their files carry no dates, and a checkout's times are its own).
    public static func collect(_ arguments: [FilePath], logger: Logger) -> PhotoSelection {
        if arguments.isEmpty {
            guard let bundled = BundledPhotos.folder() else {
                logger.warning("the bundled photos were not found; pass a file or folder, or set PHOTOZOOM_IMAGES")
                return PhotoSelection(photos: [], emptyMessage: "The bundled photos were not found", opening: nil)
            }
            let (photos, problems) = PhotoLibrary.photos(inFolder: FilePath(bundled))
            for problem in problems { logger.warning("\(problem)") }
            return PhotoSelection(photos: photos, emptyMessage: "\(bundled) has no images", opening: nil)
        }
        let empty = arguments.count == 1 ? "\(arguments[0]) has no images" : "None of the paths has images"
        if arguments.count == 1, let around = PhotoLibrary.folder(around: arguments[0]) {
            for problem in around.problems { logger.warning("\(problem)") }
            return PhotoSelection(photos: around.photos, emptyMessage: empty, opening: around.opening)
        }
        // What earlier launches learnt of the trees (a cache: a run goes on without it).
        let index = LibraryIndex.defaultFile().flatMap { LibraryIndex.open($0) { logger.warning("\($0)") } }
        let started = ContinuousClock.now
        let (photos, problems) = PhotoLibrary.collect(arguments, index: index) { indexing in
            let elapsed = (ContinuousClock.now - started).components
            let ms = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
            logger.debug("library: in \(ms) ms, photos read and from the index: \(indexing.read) \(indexing.fromIndex)")
        }
        for problem in problems { logger.warning("\(problem)") }
        return PhotoSelection(photos: photos, emptyMessage: empty, opening: nil)
    }
}
