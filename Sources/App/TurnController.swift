import Imaging
import Library
import Logging
import Viewer

/// Ctrl+R (or a two-finger twist): the open photo turns with a spring; a JPEG's or PNG's file is turned for
/// good by its EXIF orientation (`PhotoTurn`), and its thumbnail and pages read it again (as a file written
/// elsewhere). Another format, or a read-only viewer, turns it on screen only, and says so once.
final class TurnController {
    /// Whether an explicit action (Ctrl+R) may write a photo's file (not with `--read-only`, nor in most tests).
    var writesPhotos = false
    /// What was already said about turning on screen only (once each: a format, or read-only).
    private var said: Set<String> = []
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Turns `photo`, open in `viewer`, `quarters` quarters (clockwise positive, −2…2), on screen from `angle`
    /// (radians, where a twist left it): the change the library takes when its file was written (nil: none).
    func turn(_ photo: Photo, in viewer: PhotoViewerScreen, quarters: Int, from angle: Double) -> FolderWatcher.Changes? {
        guard let image = viewer.image, quarters != 0 else { return nil }
        let clockwise = quarters > 0
        var written = false
        if writesPhotos {
            do {
                for _ in 0..<abs(quarters) {
                    switch try PhotoTurn.turn(photo.file, clockwise: clockwise) {
                    case .written(let orientation):
                        written = true
                        logger.info("\(photo.path) turned \(clockwise ? "clockwise" : "counter-clockwise") (EXIF orientation \(orientation.rawValue))")
                    case .notWritable(let format):
                        sayOnce(format, "\(format) photos are turned on screen only: their files are not written")
                    }
                }
            } catch {
                viewer.untwist()
                logger.warning("\(error)")
                return written ? FolderWatcher.Changes(touched: [photo.file]) : nil
            }
        } else {
            sayOnce("read-only", "photos are turned on screen only: the viewer is read-only (--read-only)")
        }
        let turned = (0..<abs(quarters)).reduce(image) { picture, _ in (clockwise ? ExifOrientation.right : .left).apply(to: picture) }
        viewer.turnPhoto(quarters: quarters, from: angle, to: turned)
        return written ? FolderWatcher.Changes(touched: [photo.file]) : nil
    }

    private func sayOnce(_ key: String, _ line: String) {
        guard said.insert(key).inserted else { return }
        logger.warning("\(line)")
    }
}
