import Imaging
import Library
import Logging
import SystemPackage
import Viewer

/// Ctrl+R (or a two-finger twist): the open photo turns with a spring; a JPEG's or PNG's file is turned for
/// good by its EXIF orientation (`PhotoTurn`), an MP4's or QuickTime's by its matrix, and its thumbnail and pages
/// read it again (as a file written elsewhere). A Live Photo's movie turns with its still. Another format, or a
/// read-only viewer, turns it on screen only, and says so once.
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
        var written: [FilePath] = []
        if writesPhotos {
            for file in [photo.file] + (photo.motion.map { [$0] } ?? []) {
                do {
                    try write(file, quarters: quarters, into: &written)
                } catch {
                    logger.warning("\(error)")
                    guard file == photo.file else { break }   // the still turned: it stays turned
                    viewer.untwist()
                    return written.isEmpty ? nil : FolderWatcher.Changes(touched: Set(written))
                }
            }
        } else {
            sayOnce("read-only", "photos are turned on screen only: the viewer is read-only (--read-only)")
        }
        let turned = (0..<abs(quarters)).reduce(image) { picture, _ in (quarters > 0 ? ExifOrientation.right : .left).apply(to: picture) }
        viewer.turnPhoto(quarters: quarters, from: angle, to: turned)
        return written.isEmpty ? nil : FolderWatcher.Changes(touched: Set(written))
    }

    /// Turns `file` `quarters` quarters for good, added to `written` once a quarter is written; a format turned on
    /// screen only is said once. A failure after a quarter was written leaves that quarter.
    private func write(_ file: FilePath, quarters: Int, into written: inout [FilePath]) throws(PhotoTurn.Failure) {
        let clockwise = quarters > 0, name = String(decoding: file).escapingControlCharacters
        for _ in 0..<abs(quarters) {
            switch try PhotoTurn.turn(file, clockwise: clockwise) {
            case .written(let orientation):
                if written.last != file { written.append(file) }
                logger.info("\(name) turned \(clockwise ? "clockwise" : "counter-clockwise") (orientation \(orientation.rawValue))")
            case .notWritable(let format):
                return sayOnce(format, "\(format) photos are turned on screen only: their files are not written")
            }
        }
    }

    private func sayOnce(_ key: String, _ line: String) {
        guard said.insert(key).inserted else { return }
        logger.warning("\(line)")
    }
}
