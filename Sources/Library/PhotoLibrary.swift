import Foundation
import Glibc
import Imaging
import SystemPackage
import Threads

/// One photo the viewer shows.
public struct Photo: Sendable, Equatable {
    /// The file as its bytes: a name that is not UTF-8 (Latin-1 from an old camera) opens as it is.
    public let file: FilePath
    /// For people: the path, with bytes that are not UTF-8 shown as U+FFFD and control characters
    /// written out (a name holding a newline prints on one line).
    public var path: String { String(decoding: file).escapingControlCharacters }
    public var name: String { file.lastComponent.map { String(decoding: $0).escapingControlCharacters } ?? path }
    /// Its place in the timeline; nil for a photo not from a folder's tree (it keeps the command line's place).
    public var date: PhotoDate?
    /// The camera that took it, as its EXIF block names it ("Canon EOS R6"), when a tree's photo says.
    public var camera: String?
    /// A Live Photo's movie, the file beside it (`LivePhotos`); nil for any other photo.
    public var motion: FilePath?
    /// Whether it is a clip (named as one: a file of a clip's content named otherwise is rare, and shows as one anyway).
    public var isClip: Bool { ImageFormat.isClipName(file.lastComponent?.string ?? "") }
    /// Whether its frames play, as the library read it (the index keeps it); nil when not known (a photo passed on
    /// its own, or not read yet): its first bytes are then looked at when its cell is shown.
    public var movement: Movement?
    /// Its thumbnail's mean colour (0xRRGGBB), as the index keeps it: its cell's colour until its thumbnail comes
    /// (a scrub through thousands of photos shows their colours at once); nil when none was made yet.
    public var colour: UInt32?

    /// A still, or the format its frames play in ("GIF" in the cell's badge): one byte, the format's place in
    /// `ImageFormat.all` (a library of a million photos keeps one a photo).
    public struct Movement: Sendable, Equatable {
        /// 0: a still; else the format's place, plus one.
        private let place: UInt8

        public static let still = Movement(place: 0)

        public static func plays(_ format: ImageFormat) -> Movement {
            Movement(place: ImageFormat.all.firstIndex(of: format).map { UInt8($0 + 1) } ?? 0)
        }

        private init(place: UInt8) { self.place = place }

        public init(_ facts: PhotoFacts) { self = facts.moving.map(Movement.plays) ?? .still }

        /// The format its frames play in; nil for a still.
        public var format: ImageFormat? { place == 0 ? nil : ImageFormat.all[Int(place) - 1] }
    }

    public init(file: FilePath, date: PhotoDate? = nil, camera: String? = nil, movement: Movement? = nil, colour: UInt32? = nil) {
        self.file = file
        self.date = date
        self.camera = camera
        self.movement = movement
        self.colour = colour
    }

    /// The same photo under another name (a rename, a move within the tree).
    public func renamed(_ file: FilePath) -> Photo {
        Photo(file: file, date: date, camera: camera, movement: movement, colour: colour)
    }
}

/// Turns command-line PATHs into the list of photos: a file is taken as it is (its content decides
/// later whether it is an image), a folder gives the images of its whole tree as a timeline (`FolderTree`;
/// by date taken, oldest first), and a `file://` URI is a path. Names are read as bytes, so any name a
/// folder holds is listed. Problems come back as one line each.
public enum PhotoLibrary {
    /// Extensions that mark a file in a folder as a photo even before its content is read (every
    /// format's, from the format table); a file without one is a photo when its content says so.
    static let photoExtensions = ImageFormat.allExtensions

    /// How a tree's photos were dated: read from their files, or taken from the index.
    public struct Indexing: Equatable, Sendable {
        public var read = 0
        public var fromIndex = 0
        /// Files the index held that the tree no longer has.
        public var forgotten = 0

        public init(read: Int = 0, fromIndex: Int = 0, forgotten: Int = 0) {
            self.read = read
            self.fromIndex = fromIndex
            self.forgotten = forgotten
        }
    }

    /// The photos of `arguments`: files and folders (see `localPath` for what a command line gives).
    /// `skipping`: folders never listed inside a tree (by default the user's cache folder). `index`:
    /// what earlier launches learnt of the trees' files (and where this one keeps what it learns);
    /// `indexed` hears how each tree was dated, `listed` which folders it has (what a live library watches).
    /// `remembered`: the timeline a launch shows as the index remembered it (what the walk then confirms, in
    /// place of the index's entries).
    public static func collect(_ arguments: [FilePath], skipping: [FilePath]? = nil, index: LibraryIndex? = nil,
                               remembered: RememberedTimeline? = nil, listed: ([FilePath]) -> Void = { _ in },
                               indexed: (Indexing) -> Void = { _ in }) -> (photos: [Photo], problems: [String]) {
        var photos: [Photo] = [], problems: [String] = []
        for path in arguments {
            switch Entry(path) {
            case .regularFile:
                photos.append(Photo(file: path))
            case .skipped(let why):
                problems.append("\(Photo(file: path).path): \(why == Entry.vanished ? "no such file or folder" : why)")
            case .folder:
                // What the index knows of the tree is read while the tree is walked (on another core).
                let known = Locked<(done: Bool, entries: [[UInt8]: LibraryIndex.Entry])>((true, [:]))
                if let index, remembered == nil {
                    known.withLock { $0.done = false }
                    Worker.start(named: "photozoom index read") {
                        let entries = index.entries(under: path)
                        known.withLockWakingWaiters { $0 = (true, entries) }
                    }
                }
                var found: [FolderTree.File]
                do {
                    let tree = FolderTree(root: path, skipping: skipping ?? cacheFolders())
                    problems += tree.problems
                    listed(tree.folders)
                    found = tree.files
                }
                found.removeAll { file in
                    guard let problem = photoProblem(file.path, isRegular: file.isRegular) else { return false }
                    if !problem.isEmpty { problems.append(problem) }
                    return true
                }
                let entries = remembered == nil ? known.wait(until: \.done) { $0.entries } : [:]
                photos += LivePhotos.joined(timeline(found, known: remembered.map { .remembered($0) } ?? .entries(entries), index: index,
                                                     indexed: indexed))
            }
        }
        return (photos, problems)
    }

    /// The photos of one folder only, in a file manager's order (a file opened on its own is shown
    /// among these, as a file manager would show them).
    public static func photos(inFolder folder: FilePath) -> (photos: [Photo], problems: [String]) {
        guard let names = FolderListing.names(in: folder) else {
            return ([], ["\(Photo(file: folder).path): the folder cannot be read (\(PhotoFile.reason(errno)))"])
        }
        var photos: [Photo] = [], problems: [String] = []
        for name in names where !name.string.hasPrefix(".") {
            let file = folder.appending(name)
            if case .folder = Entry(file) { continue }
            if let problem = photoProblem(file) {
                if !problem.isEmpty { problems.append(problem) }
            } else {
                photos.append(Photo(file: file))
            }
        }
        return (LivePhotos.joined(photos), problems)
    }

    /// Nil when a file in a folder is a photo; "" when it is something else said nothing of; else why
    /// a file named as a photo can't be one (said once, never opened).
    /// `isRegular`: the folder's walk found a regular file there (it is not looked at again).
    static func photoProblem(_ file: FilePath, isRegular: Bool = false) -> String? {
        let namedAsPhoto = file.extension.map { photoExtensions.contains($0.lowercased()) } ?? false
        switch isRegular ? .regularFile : Entry(file) {
        case .regularFile: return namedAsPhoto || looksLikeImage(file) ? nil : ""
        case .folder: return ""
        case .skipped(let why): return namedAsPhoto ? "\(Photo(file: file).path): \(why)" : ""
        }
    }

    /// What a tree's walk knows of its files before it reads any.
    enum KnownFiles {
        /// The index's entries, by path bytes.
        case entries([[UInt8]: LibraryIndex.Entry])
        /// The timeline shown as the index remembered it (what it knew then, without a second copy of it).
        case remembered(RememberedTimeline)
    }

    /// Photos in the order they were taken (a camera's clock, else the file's), oldest first; photos of
    /// the same moment keep the tree's order. What was known (`known`) of a file of the same size and
    /// time is taken from it; the others' first bytes are read (two at a time, no pixels), a batch at a time,
    /// each batch kept in the index as soon as it is read.
    static func timeline(_ files: [FolderTree.File], known: KnownFiles, index: LibraryIndex?,
                         indexed: (Indexing) -> Void) -> [Photo] {
        var dates = [PhotoDate?](repeating: nil, count: files.count)
        var cameras = [String?](repeating: nil, count: files.count)
        var movements = [Photo.Movement?](repeating: nil, count: files.count)
        var colours = [UInt32?](repeating: nil, count: files.count)
        var unread: [Int] = []
        /// The known files the tree no longer has, by path bytes.
        var forgotten: [[UInt8]] = []
        switch known {
        case .entries(var entries):
            for (i, file) in files.enumerated() {
                if let entry = entries.removeValue(forKey: file.path.bytes), entry.size == file.size, entry.modified == file.modifiedNanoseconds {
                    dates[i] = entry.facts.date.map { PhotoDate($0) } ?? PhotoDate(modified: file.modified)
                    cameras[i] = entry.facts.camera
                    movements[i] = Photo.Movement(entry.facts)
                    colours[i] = entry.colour
                } else {
                    unread.append(i)
                }
            }
            forgotten = Array(entries.keys)
        case .remembered(let remembered):
            var places = remembered.places()
            for (i, file) in files.enumerated() {
                if let k = places.removeValue(forKey: file.path), remembered.isSame(k, size: file.size, modified: file.modifiedNanoseconds) {
                    dates[i] = remembered.photos[k].date
                    cameras[i] = remembered.photos[k].camera
                    movements[i] = remembered.photos[k].movement
                    colours[i] = remembered.photos[k].colour
                } else {
                    unread.append(i)
                }
            }
            forgotten = places.values.map { remembered.photos[$0].file.bytes }
        }
        for start in stride(from: 0, to: unread.count, by: LibraryIndex.batch) {
            let batch = Array(unread[start..<min(unread.count, start + LibraryIndex.batch)])
            let read = UnsafeMutableBufferPointer<PhotoFacts>.allocate(capacity: batch.count)
            defer {
                _ = read.deinitialize()   // every element was initialized below (a camera's name is a String)
                read.deallocate()
            }
            nonisolated(unsafe) let out = read
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                (out.baseAddress! + k).initialize(to: PhotoFacts.read(path: files[batch[k]].path) ?? PhotoFacts())
            }
            for (k, i) in batch.enumerated() {
                dates[i] = read[k].date.map { PhotoDate($0) } ?? PhotoDate(modified: files[i].modified)
                cameras[i] = read[k].camera
                movements[i] = Photo.Movement(read[k])
            }
            index?.record(batch.enumerated().map { k, i in
                (files[i].path, LibraryIndex.Entry(size: files[i].size, modified: files[i].modifiedNanoseconds, facts: read[k]))
            })
        }
        // What is gone from the tree is forgotten (files the tree no longer lists).
        index?.forget(forgotten)
        indexed(Indexing(read: unread.count, fromIndex: files.count - unread.count, forgotten: forgotten.count))
        let instants = dates.map { $0!.instant }
        let order = files.indices.sorted { a, b in instants[a] != instants[b] ? instants[a] < instants[b] : a < b }
        return order.map { Photo(file: files[$0].path, date: dates[$0], camera: cameras[$0], movement: movements[$0], colour: colours[$0]) }
    }

    /// Folders of the user's cache (the thumbnails', ours): never photos, even inside an opened tree.
    private static func cacheFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [FilePath] {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return [FilePath(cache)] }
        return environment["HOME"].map { [FilePath($0).appending(".cache")] } ?? []
    }

    /// One file passed on its own, as a file manager opens a photo: the photos of its folder, and
    /// which of them it is (to open first). Nil when it is not a file, or its folder does not list it
    /// as a photo (it is then shown on its own, and its problem named).
    public static func folder(around file: FilePath) -> (photos: [Photo], problems: [String], opening: Int)? {
        var path = file
        if !path.isAbsolute { path = FilePath(FileManager.default.currentDirectoryPath).pushing(path) }
        path = path.lexicallyNormalized()
        guard case .regularFile = Entry(path), let name = path.lastComponent else { return nil }
        let (photos, problems) = photos(inFolder: path.removingLastComponent())
        guard let index = photos.firstIndex(where: { $0.file.lastComponent == name }) else { return nil }
        return (photos, problems, index)
    }

    /// A command-line argument as a path: a `file://` URI (as a desktop launcher passes it) has its
    /// %XX escapes turned into the bytes they stand for; anything else is a path, byte for byte.
    public static func localPath(_ argument: [UInt8]) -> FilePath {
        let scheme = Array("file://".utf8)
        var rest = argument[...]
        if argument.starts(with: scheme) {
            rest = argument.dropFirst(scheme.count)
            let host = rest.prefix { $0 != UInt8(ascii: "/") }
            if host.isEmpty || host.elementsEqual("localhost".utf8) {
                rest = rest.dropFirst(host.count)
                var decoded: [UInt8] = []
                var i = rest.startIndex
                while i < rest.endIndex {
                    if rest[i] == UInt8(ascii: "%"), i + 2 < rest.endIndex,
                       let value = UInt8(String(decoding: rest[(i + 1)...(i + 2)], as: UTF8.self), radix: 16), value != 0 {
                        decoded.append(value)
                        i += 3
                    } else {
                        decoded.append(rest[i])
                        i += 1
                    }
                }
                rest = decoded[...]
            } else {
                rest = argument[...]
            }
        }
        return absolute(FilePath(platformString: rest.map { CChar(bitPattern: $0) } + [0]))
    }

    public static func localPath(_ argument: String) -> FilePath { localPath(Array(argument.utf8)) }

    /// `path` from the root, against the current folder when it is relative, with `.`, `..` and doubled
    /// slashes taken out as written (links are not followed): `photozoom .` keys its favourites, index and
    /// "Open with" by the same names as `photozoom ~/Pictures`.
    public static func absolute(_ path: FilePath) -> FilePath {
        guard !path.isEmpty else { return path }
        var full = path
        if !path.isAbsolute, let here = currentFolder() { full = here.pushing(path) }
        return full.lexicallyNormalized()
    }

    /// The current folder's bytes (`getcwd`), whatever its name's encoding.
    private static func currentFolder() -> FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return FilePath(platformString: buffer)
    }

    /// Whether `path` is a file to read (a regular file, or a link to one).
    public static func isFile(_ path: FilePath) -> Bool {
        if case .regularFile = Entry(path) { return true }
        return false
    }

    /// What a path is, from `lstat` and `stat` (no file is opened).
    enum Entry {
        case regularFile, folder
        case skipped(String)

        static let vanished = "it vanished while the folder was read"

        init(_ path: FilePath) {
            var link = stat(), target = stat()
            guard path.withPlatformString({ lstat($0, &link) }) == 0 else {
                self = .skipped(errno == EACCES ? "permission denied" : Self.vanished)
                return
            }
            guard path.withPlatformString({ stat($0, &target) }) == 0 else {
                switch errno {
                case ENOENT: self = .skipped("a link to nothing (dangling)")
                case ELOOP: self = .skipped("a link loop")
                case EACCES: self = .skipped("permission denied")
                default: self = .skipped(PhotoFile.reason(errno))
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

    /// The first bytes of a regular file say it is an image (opened without blocking, read as much
    /// as sniffing looks at).
    private static func looksLikeImage(_ file: FilePath) -> Bool {
        let fd = file.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 && ImageFormat(sniffing: head[..<n]) != nil
    }
}
