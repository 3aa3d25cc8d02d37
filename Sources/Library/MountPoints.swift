import Glibc
import SystemPackage

/// Where this process's file systems are mounted, as `/proc/self/mountinfo` lists them: what the Trash
/// specification's "top directory" of a file is (the mount point above it), bind mounts included, which
/// `st_dev` cannot tell apart from their source.
public enum MountPoints {
    /// This process's mount points; `/` alone when `/proc` cannot be read.
    public static let read: @Sendable () -> [FilePath] = {
        guard let text = readWhole("/proc/self/mountinfo") else { return [FilePath("/")] }
        let points = parse(text)
        return points.isEmpty ? [FilePath("/")] : points
    }

    /// The mount points of a `mountinfo` text: each line's fifth field, its octal escapes (`\040` for a
    /// space, `\134` for a backslash) read back into bytes.
    public static func parse(_ text: [UInt8]) -> [FilePath] {
        text.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count > 4, fields[4].first == UInt8(ascii: "/") else { return nil }
            return FilePath(bytes: unescaped(fields[4]))
        }
    }

    /// The deepest of `mounts` that holds `path` (both absolute, links resolved): its top folder.
    public static func top(of path: FilePath, among mounts: [FilePath]) -> FilePath {
        mounts.filter { path.starts(with: $0) }.max { $0.components.count < $1.components.count } ?? FilePath("/")
    }

    private static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = [], i = field.startIndex
        while i < field.endIndex {
            let digits = field[min(i + 1, field.endIndex)..<min(i + 4, field.endIndex)]
            if field[i] == UInt8(ascii: "\\"), digits.count == 3, digits.allSatisfy({ (48...55).contains($0) }) {
                out.append(digits.reduce(0) { $0 &* 8 &+ ($1 - 48) })
                i += 4
            } else {
                out.append(field[i])
                i += 1
            }
        }
        return out
    }

    /// The whole of a `/proc` file (its size is not known ahead).
    private static func readWhole(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }
}
