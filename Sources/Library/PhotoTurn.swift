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

    /// Turns the photo at `path` a quarter `clockwise` (or not). A file no one may write (mode 0444), or one
    /// with other names (hard links, which a new file would split from), is refused. The orientation is read
    /// from the very bytes rewritten, and the file is checked again just before the new one takes its place:
    /// one saved by another program meanwhile is left as it is. Owner, permissions and extended attributes
    /// (ACLs among them) go over to the new file.
    public static func turn(_ path: FilePath, clockwise: Bool) throws(Failure) -> Outcome {
        let target = realPath(path) ?? path
        let fd: Int32, before: stat, file: [UInt8]
        do throws(ImageDecodeError) {
            fd = try PhotoFile.open(target)
            before = try status(fd, path)
            file = try PhotoFile.read(fd: fd)
        } catch {
            throw Failure(description: "\(path): not turned: \(error)")
        }
        defer { close(fd) }
        try refuseIfShared(before, path)
        let turned = OrientationWriter.current(in: file).turned(clockwise: clockwise)
        guard let written = OrientationWriter.setting(turned, in: file) else {
            return .notWritable(format: ImageFormat(sniffing: file)?.name ?? "this format")
        }
        do {
            try AtomicFile.write(target, permissions: before.st_mode & 0o7777, { new in
                _ = fchown(new.rawValue, before.st_uid, before.st_gid)   // kept where allowed (a user cannot give a file away)
                ExtendedAttributes.copy(from: fd, to: new.rawValue)
                _ = try new.writeAll(written)
            }, beforeRename: {
                guard isUnchanged(target, since: before) else { throw Changed() }
            })
        } catch is Changed {
            throw Failure(description: "\(path): not turned: it changed while it was turned (another program saved it); it is left as it is")
        } catch {
            throw Failure(description: "\(path): not turned: it cannot be written (\(error))")
        }
        return .written(turned)
    }

    private struct Changed: Error {}

    /// A file no one may write, or one with other names, is not rewritten.
    private static func refuseIfShared(_ info: stat, _ path: FilePath) throws(Failure) {
        guard info.st_mode & 0o222 != 0, path.withPlatformString({ access($0, W_OK) }) == 0 else {
            throw Failure(description: "\(path): not turned: it is read-only")
        }
        guard info.st_nlink <= 1 else {
            throw Failure(description: "\(path): not turned: it has \(info.st_nlink) names (hard links), which a new file would part")
        }
    }

    private static func status(_ fd: Int32, _ path: FilePath) throws(ImageDecodeError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(PhotoFile.reason(errno)) }
        return info
    }

    /// The file at `path` is still the one read: the same device and inode, size and modification time.
    private static func isUnchanged(_ path: FilePath, since before: stat) -> Bool {
        var now = stat()
        return path.withPlatformString({ stat($0, &now) }) == 0 && now.st_dev == before.st_dev && now.st_ino == before.st_ino
            && now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec && now.st_mtim.tv_nsec == before.st_mtim.tv_nsec
    }

    /// `path` with its links resolved, as bytes; nil when it can't be.
    private static func realPath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }
}
