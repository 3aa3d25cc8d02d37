import Foundation
import Imaging
import Library
import Logging
import SystemPackage
import Threads
import WindowSystem

/// What Ctrl+C puts on the clipboard for a photo, as Loupe does: the file (`text/uri-list`, and
/// GNOME's `x-special/gnome-copied-files` so file managers paste it) and the picture (`image/png`);
/// a photo dragged out offers the same but GNOME's list (a drop carries no "copy" or "cut").
/// The PNG is made on a worker as soon as the photo is copied (a 12 MP photo takes a second or two);
/// a paste that comes sooner waits for it.
enum ClipboardPhoto {
    /// A Live Photo's movie goes with its still: both files in the lists (the picture is the still's).
    static func items(for photo: Photo, dragged: Bool = false, logger: Logger) -> [ClipboardItem] {
        func absolute(_ path: FilePath) -> FilePath { path.isAbsolute ? path : FilePath(FileManager.default.currentDirectoryPath).pushing(path) }
        let file = absolute(photo.file)
        let uris = ([file] + (photo.motion.map { [absolute($0)] } ?? [])).map { ThumbnailCache.uri(ofPath: $0) }
        let png = PromisedBytes {
            do {
                return try ImageDecoder.decode(file: file).image.pngData()
            } catch {
                logger.warning("cannot copy \(photo.name) as a picture: \(error)")
                return nil
            }
        }
        return [ClipboardItem(target: "text/uri-list") { Array(uris.map { $0 + "\r\n" }.joined().utf8) }]
            + (dragged ? [] : [ClipboardItem(target: "x-special/gnome-copied-files") { Array((["copy"] + uris).joined(separator: "\n").utf8) }])
            + [ClipboardItem(target: "image/png") { png.value }]
    }
}

/// Bytes made once on a thread of their own; `value` waits for them.
final class PromisedBytes: Sendable {
    /// Whether they are made, and what was made (nil: nothing could be).
    private let made = Locked<(done: Bool, bytes: [UInt8]?)>((false, nil))

    init(_ make: @escaping @Sendable () -> [UInt8]?) {
        Worker.start(named: "photozoom clipboard picture") { [made] in
            let bytes = make()
            made.withLockWakingWaiters { $0 = (true, bytes) }
        }
    }

    var value: [UInt8]? { made.wait(until: \.done) { $0.bytes } }
}
