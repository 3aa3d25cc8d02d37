import Glibc
import SystemPackage

/// A file written whole or not at all: into a temporary file beside it (`mkstemp`: a name no one else
/// has, mode 0600), flushed to the disk, given its permissions, then renamed over `path`; on any
/// failure the temporary file is removed and the old file stays. The one way the viewer writes a file
/// (outputs the user named, thumbnails, the grid's first screen).
public enum AtomicFile {
    /// Writes what `fill` writes into the file's descriptor to `path`, with `permissions`; `beforeRename` (after
    /// the new file is whole on the disk) can still call it off by throwing.
    public static func write(_ path: String, permissions: mode_t, _ fill: (FileDescriptor) throws -> Void,
                             beforeRename: () throws -> Void = {}) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array(((folder.isEmpty ? "/" : folder) + "/.\(name).XXXXXX").utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fd = FileDescriptor(rawValue: raw)
        do {
            try fd.closeAfter {
                try fill(fd)
                guard fchmod(raw, permissions) == 0, fsync(raw) == 0 else { throw Errno(rawValue: errno) }
            }
            try beforeRename()
            guard rename(temporary, path) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
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
