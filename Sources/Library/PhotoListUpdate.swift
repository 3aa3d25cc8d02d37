import Glibc
import Imaging
import SystemPackage

/// The photos after a burst of changes in their folders (`FolderWatcher.Changes`), each file the changes
/// name looked at for what it is now: a photo that is gone leaves, one renamed keeps its place (and its
/// date), one written over stays and is shown anew, and a new photo takes its place in the order: by date
/// in a timeline (its camera's, else its file's), else by name as a file manager sorts.
public struct PhotoListUpdate {
    public let photos: [Photo]
    /// For each of `photos`, its place in the old list; nil: new.
    public let origins: [Int?]
    /// Places in the old list of the photos written over (they keep their places).
    public let rewritten: [Int]
    /// New files named as photos that can't be (a dangling link …), one line each.
    public let problems: [String]
    /// Whether photos came, went or were renamed: the grid changes.
    public var changesList: Bool { origins != Array(0..<oldCount).map(Optional.some) || renamed > 0 }
    /// How many photos were renamed (they keep their places).
    public let renamed: Int
    private let oldCount: Int

    public init(_ old: [Photo], changes: FolderWatcher.Changes, isTimeline: Bool) {
        var entries = old.enumerated().map { (photo: $1, origin: Optional($0)) }
        var byPath: [FilePath: Int] = [:], stillOfMovie: [FilePath: Int] = [:]
        for (i, photo) in old.enumerated() {
            byPath[photo.file] = i
            if let movie = photo.motion { stillOfMovie[movie] = i }
        }
        var gone: Set<Int> = [], rewritten: [Int] = [], renamedTo: Set<FilePath> = [], moved: Set<Int> = []
        // Folders: the photos in one renamed keep their places under its new name; in one moved out or
        // deleted, they are gone.
        for folder in changes.folders {
            let prefix = folder.bytes + [UInt8(ascii: "/")]
            for (path, i) in byPath where path.bytes.starts(with: prefix) {
                let tail = path.bytes.dropFirst(folder.bytes.count)
                if let to = changes.renamed[folder], byPath[to] == nil,
                   case let now = FilePath(platformString: (to.bytes + tail).map { CChar(bitPattern: $0) } + [0]), PhotoLibrary.isFile(now) {
                    entries[i].photo = entries[i].photo.renamed(now)
                    renamedTo.insert(now)
                    moved.insert(i)
                } else if !PhotoLibrary.isFile(path) {
                    gone.insert(i)
                }
            }
        }
        // Bytes order: the same every run, whatever the set's.
        let touched = changes.touched.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        for path in touched {
            // A Live Photo's movie written again (turned) or gone (then its still carries none): its still is read again.
            if let i = stillOfMovie[path], !gone.contains(i) {
                if case .regularFile = PhotoLibrary.Entry(path) {} else { entries[i].photo.motion = nil }
                if !rewritten.contains(i) { rewritten.append(i) }
                continue
            }
            guard let i = byPath[path], !moved.contains(i), !gone.contains(i) else { continue }
            if case .regularFile = PhotoLibrary.Entry(path) {
                if !rewritten.contains(i) { rewritten.append(i) }
            } else if let to = changes.renamed[path], byPath[to] == nil, !renamedTo.contains(to), !Self.isHidden(to),
                      case .regularFile = PhotoLibrary.Entry(to) {
                entries[i].photo = entries[i].photo.renamed(to)
                renamedTo.insert(to)
            } else {
                gone.insert(i)
            }
        }
        var problems: [String] = []
        var added: [Photo] = []
        for path in touched where byPath[path] == nil && stillOfMovie[path] == nil && !renamedTo.contains(path) && !changes.folders.contains(path) && !Self.isHidden(path) {
            guard let problem = PhotoLibrary.photoProblem(path) else {
                added.append(isTimeline ? changes.read[path] ?? Self.read(path) : Photo(file: path))
                continue
            }
            if !problem.isEmpty { problems.append(problem) }
        }
        entries.removeAll { $0.origin.map(gone.contains) ?? false }
        added = Self.joinLivePhotos(added, into: &entries)
        for photo in added {
            let at: Int
            if let date = photo.date {
                at = entries.firstIndex { ($0.photo.date?.instant ?? 0) > date.instant } ?? entries.count
            } else {
                let key = Self.sortKey(photo)
                at = entries.firstIndex { key.lexicographicallyPrecedes(Self.sortKey($0.photo)) } ?? entries.count
            }
            entries.insert((photo, nil), at: at)
        }
        photos = entries.map(\.photo)
        origins = entries.map(\.origin)
        self.rewritten = rewritten.filter { !gone.contains($0) }
        self.problems = problems
        renamed = renamedTo.count
        oldCount = old.count
    }

    /// `added` with Live Photos made whole: a movie arriving with its still, or after it (by name, else by the
    /// ContentIdentifier both carry), is the still's; a still arriving after its movie takes the movie out of `entries`.
    private static func joinLivePhotos(_ arriving: [Photo], into entries: inout [(photo: Photo, origin: Int?)]) -> [Photo] {
        var added = LivePhotos.joined(arriving)
        for movie in added where LivePhotos.isMovieName(movie.file) {
            guard let i = LivePhotos.still(of: movie.file, among: entries.map(\.photo)) else { continue }
            entries[i].photo.motion = movie.file
            added.removeAll { $0.file == movie.file }
        }
        for (j, still) in added.enumerated() where still.motion == nil && !still.isClip {
            guard let i = LivePhotos.movie(of: still.file, among: entries.map(\.photo)) else { continue }
            added[j].motion = entries[i].photo.file
            entries.remove(at: i)
        }
        return added
    }

    /// Files whose names start with a dot: an editor's temporary save, a hidden file (a tree's walk skips them).
    static func isHidden(_ path: FilePath) -> Bool { path.lastComponent?.string.hasPrefix(".") ?? true }

    /// As a file manager sorts names (`FolderListing.sortKey`).
    static func sortKey(_ photo: Photo) -> [UInt32] { FolderListing.sortKey(photo.name) }

    /// A new photo of a timeline: when it was taken (its camera's clock, else its file's time) and with what.
    static func read(_ path: FilePath) -> Photo {
        let facts = PhotoFacts.read(path: path)
        let movement = facts.map(Photo.Movement.init)
        if let capture = facts?.date { return Photo(file: path, date: PhotoDate(capture), camera: facts?.camera, movement: movement) }
        var info = stat()
        _ = path.withPlatformString { stat($0, &info) }
        return Photo(file: path, date: PhotoDate(modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9),
                     camera: facts?.camera, movement: movement)
    }
}
