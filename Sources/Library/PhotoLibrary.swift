import Foundation
import Glibc
import Imaging

/// One photo the viewer shows.
public struct Photo: Sendable, Equatable {
    public let path: String
    public var name: String { (path as NSString).lastPathComponent }
}

/// Turns command-line PATHs into the list of photos: a file is taken as it is (its content decides
/// later whether it is an image), a folder gives its images sorted by name the way a file manager
/// sorts them (IMG_2 before IMG_10), and a `file://` URI is a path. Problems come back as one line each.
public enum PhotoLibrary {
    /// Extensions that mark a file in a folder as a photo even before its content is read.
    static let photoExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "webp"]

    public static func collect(_ arguments: [String]) -> (photos: [Photo], problems: [String]) {
        var photos: [Photo] = [], problems: [String] = []
        let fm = FileManager.default
        for argument in arguments {
            let path = localPath(argument)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isFolder) else {
                problems.append("\(argument): no such file or folder")
                continue
            }
            guard isFolder.boolValue else {
                photos.append(Photo(path: path))
                continue
            }
            guard let names = try? fm.contentsOfDirectory(atPath: path) else {
                problems.append("\(argument): the folder cannot be read")
                continue
            }
            let sorted = names.filter { !$0.hasPrefix(".") }
                .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
            for name in sorted {
                let file = (path as NSString).appendingPathComponent(name)
                let namedAsPhoto = photoExtensions.contains((name as NSString).pathExtension.lowercased())
                switch Entry(file) {
                case .regularFile:
                    if namedAsPhoto || looksLikeImage(file) { photos.append(Photo(path: file)) }
                case .folder:
                    continue
                case .skipped(let why):
                    // Named as a photo but not one that can be read: said once, never opened.
                    if namedAsPhoto { problems.append("\(file): \(why)") }
                }
            }
        }
        return (photos, problems)
    }

    /// One file passed on its own, as a file manager opens a photo: the photos of its folder, and
    /// which of them it is (to open first). Nil when it is not a file, or its folder does not list it
    /// as a photo (it is then shown on its own, and its problem named).
    public static func folder(around argument: String) -> (photos: [Photo], problems: [String], opening: Int)? {
        let path = (localPath(argument) as NSString).standardizingPath
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        let (photos, problems) = collect([(path as NSString).deletingLastPathComponent])
        guard let index = photos.firstIndex(where: { $0.path == path }) else { return nil }
        return (photos, problems, index)
    }

    /// A `file://` URI (as a desktop launcher passes it) becomes a path; anything else is one.
    static func localPath(_ argument: String) -> String {
        guard argument.hasPrefix("file://"), let url = URL(string: argument), url.isFileURL else { return argument }
        return url.path
    }

    /// What a folder's entry is, from `lstat` and `stat` (no file is opened).
    enum Entry {
        case regularFile, folder
        case skipped(String)

        init(_ path: String) {
            var link = stat(), target = stat()
            guard lstat(path, &link) == 0 else {
                self = .skipped(errno == EACCES ? "permission denied" : "it vanished while the folder was read")
                return
            }
            guard stat(path, &target) == 0 else {
                switch errno {
                case ENOENT: self = .skipped("a link to nothing (dangling)")
                case ELOOP: self = .skipped("a link loop")
                case EACCES: self = .skipped("permission denied")
                default: self = .skipped(String(cString: strerror(errno)).lowercased())
                }
                return
            }
            switch target.st_mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .folder
            case S_IFIFO: self = .skipped("a pipe (FIFO), not a regular file")
            case S_IFSOCK: self = .skipped("a socket, not a regular file")
            default: self = .skipped("a device, not a regular file")
            }
        }
    }

    /// The first bytes of a regular file say it is an image (opened without blocking, read 12 bytes).
    private static func looksLikeImage(_ file: String) -> Bool {
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 12)
        let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 12) }
        return n > 0 && ImageFormat(sniffing: Array(head[..<n])) != nil
    }
}
