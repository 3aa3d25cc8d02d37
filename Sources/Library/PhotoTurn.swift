import Glibc
import Imaging
import SystemPackage

/// Ctrl+R: a photo turned a quarter for good by its EXIF orientation alone (`OrientationWriter`: JPEG and
/// PNG; no pixel re-encoded). The file is written atomically (a temporary file in its folder, flushed,
/// renamed over it) with its owner and permissions; through a symbolic link, the file it names.
public enum PhotoTurn {
    public enum Outcome: Equatable, Sendable {
        /// The file says `orientation` now.
        case written(ExifOrientation)
        /// Its format's orientation is not written (HEIC, WebP…): it can turn on screen only.
        case notWritable(format: String)
    }

    /// Why a file could not be turned; it stays as it was.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Turns the photo at `path` a quarter `clockwise` (or not).
    public static func turn(_ path: FilePath, clockwise: Bool) throws(Failure) -> Outcome {
        let target = FilePath(realPath(path) ?? path.string)
        let file: [UInt8]
        do { file = try PhotoFile.read(target) } catch {
            throw Failure(description: "\(path): not turned: \(error)")
        }
        let current = PhotoFacts.read(path: target)?.orientation ?? .up
        let turned = current.turned(clockwise: clockwise)
        guard let written = OrientationWriter.setting(turned, in: file) else {
            return .notWritable(format: ImageFormat(sniffing: file)?.name ?? "this format")
        }
        var info = stat()
        guard stat(target.string, &info) == 0 else { throw Failure(description: "\(path): not turned: \(Errno(rawValue: errno))") }
        do {
            try AtomicFile.write(target.string, permissions: info.st_mode & 0o7777) { fd in
                _ = fchown(fd.rawValue, info.st_uid, info.st_gid)   // kept where allowed (a user cannot give a file away)
                _ = try fd.writeAll(written)
            }
        } catch {
            throw Failure(description: "\(path): not turned: it cannot be written (\(error))")
        }
        return .written(turned)
    }

    private static func realPath(_ path: FilePath) -> String? {
        guard let resolved = realpath(path.string, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
