import Imaging
import Library

/// Ctrl+R (or a two-finger twist): the open photo turns with a spring; a JPEG's or PNG's file is turned for
/// good by its EXIF orientation (`PhotoTurn`), and its thumbnail and pages read it again (as a file written
/// elsewhere). Another format, or a read-only viewer, turns it on screen only, and says so once.
extension PhotoViewerApp {
    /// A quarter turn, radians: a twist let go snaps to the nearest.
    static let quarter = Double.pi / 2

    func turnOpenPhoto(clockwise: Bool) { turnOpenPhoto(quarters: clockwise ? 1 : -1) }

    /// Turns the open photo `quarters` quarters (clockwise positive, −2…2), on screen from `angle` (radians,
    /// where a twist left it).
    func turnOpenPhoto(quarters: Int, from angle: Double = 0) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, let image = viewer.image, quarters != 0 else { return }
        let photo = photos[viewer.index]
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
                if written { filesChanged(FolderWatcher.Changes(touched: [photo.file])) }
                navigator.viewer?.untwist()
                return logger.warning("\(error)")
            }
        } else {
            sayOnce("read-only", "photos are turned on screen only: the viewer is read-only (--read-only)")
        }
        let turned = (0..<abs(quarters)).reduce(image) { picture, _ in (clockwise ? ExifOrientation.right : .left).apply(to: picture) }
        viewer.turnPhoto(quarters: quarters, from: angle, to: turned)
        if written { filesChanged(FolderWatcher.Changes(touched: [photo.file])) }
        setNeedsDisplay()
    }

    /// Two fingers began to twist the open photo (false: there is none at rest to twist).
    func beginTwist() -> Bool {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, viewer.image != nil else { return false }
        viewer.beginTwist()
        return true
    }

    /// The fingers let go with the photo turned `angle` radians: it snaps to the nearest quarter (none: back straight).
    func endTwist(at angle: Double) {
        let quarters = Int((angle / PhotoViewerApp.quarter).rounded())
        guard quarters != 0, !navigator.isTransitioning, navigator.viewer?.image != nil else { navigator.viewer?.untwist(); return }
        turnOpenPhoto(quarters: max(-2, min(2, quarters)), from: angle)
    }

    private func sayOnce(_ key: String, _ line: String) {
        guard turnedOnScreenOnly.insert(key).inserted else { return }
        logger.warning("\(line)")
    }
}
