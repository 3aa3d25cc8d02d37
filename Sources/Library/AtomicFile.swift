import Glibc
import SystemPackage

/// A file written whole or not at all: into a temporary file beside it (`mkstemp`: a name no one else
/// has, mode 0600), flushed to the disk, given its permissions, then renamed over `path`; on any
/// failure the temporary file is removed and the old file stays. The one way the viewer writes a file
/// (outputs the user named, thumbnails, the grid's first screen).
public enum AtomicFile {
    /// Writes what `fill` writes into the file's descriptor to `path`, with `permissions`; `beforeRename` (after
    /// the new file is whole on the disk) can still call it off by throwing.
    public static func write(_ path: FilePath, permissions: mode_t, _ fill: (FileDescriptor) throws -> Void,
                             beforeRename: () throws -> Void = {}) throws {
        // The name's bytes as they are: a name that is not UTF-8 gets its temporary beside it, and is replaced.
        let bytes = path.bytes, slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { Array(bytes[..<$0]) } ?? Array(".".utf8)
        let name = slash.map { Array(bytes[($0 + 1)...]) } ?? bytes
        var template = ((folder.isEmpty ? Array("/".utf8) : folder) + Array("/.".utf8) + name + Array(".XXXXXX".utf8))
            .map(CChar.init(bitPattern:)) + [0]
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let temporary = FilePath(platformString: template)
        let fd = FileDescriptor(rawValue: raw)
        do {
            try fd.closeAfter {
                try fill(fd)
                guard fchmod(raw, permissions) == 0, fsync(raw) == 0 else { throw Errno(rawValue: errno) }
            }
            try beforeRename()
            guard temporary.withPlatformString({ from in path.withPlatformString { rename(from, $0) } }) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            _ = temporary.withPlatformString(unlink)
            throw error
        }
    }

    /// The file at the path `path` names (UTF-8).
    public static func write(_ path: String, permissions: mode_t, _ fill: (FileDescriptor) throws -> Void,
                             beforeRename: () throws -> Void = {}) throws {
        try write(FilePath(path), permissions: permissions, fill, beforeRename: beforeRename)
    }

    /// `bytes` as the whole file.
    public static func write(_ path: String, permissions: mode_t, bytes: [UInt8]) throws {
        try write(path, permissions: permissions) { _ = try $0.writeAll(bytes) }
    }

    /// The permissions a new file gets here: 0666 less the umask.
    public static var newFilePermissions: mode_t {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }
}
