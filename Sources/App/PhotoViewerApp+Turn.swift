import Imaging
import Library

/// Ctrl+R: the open photo turns a quarter with a spring; a JPEG's or PNG's file is turned for good by its
/// EXIF orientation (`PhotoTurn`), and its thumbnail and pages read it again (as a file written elsewhere).
/// Another format, or a read-only viewer, turns it on screen only, and says so once.
extension PhotoViewerApp {
    func turnOpenPhoto(clockwise: Bool) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning, let image = viewer.image else { return }
        let photo = photos[viewer.index]
        var written = false
        if writesPhotos {
            do {
                switch try PhotoTurn.turn(photo.file, clockwise: clockwise) {
                case .written(let orientation):
                    written = true
                    logger.info("\(photo.path) turned \(clockwise ? "clockwise" : "counter-clockwise") (EXIF orientation \(orientation.rawValue))")
                case .notWritable(let format):
                    sayOnce(format, "\(format) photos are turned on screen only: their files are not written")
                }
            } catch {
                return logger.warning("\(error)")
            }
        } else {
            sayOnce("read-only", "photos are turned on screen only: the viewer is read-only (--read-only)")
        }
        viewer.turnPhoto(clockwise: clockwise, to: (clockwise ? ExifOrientation.right : .left).apply(to: image))
        if written { filesChanged(FolderWatcher.Changes(touched: [photo.file])) }
        setNeedsDisplay()
    }

    private func sayOnce(_ key: String, _ line: String) {
        guard turnedOnScreenOnly.insert(key).inserted else { return }
        logger.warning("\(line)")
    }
}
