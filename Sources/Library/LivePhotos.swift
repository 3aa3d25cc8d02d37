import Glibc
import Imaging
import SystemPackage

/// A Live Photo as an iPhone exports it: a still and a short movie of the same name in the same folder
/// (`IMG_0042.HEIC` and `IMG_0042.MOV`). They are one item, the still, which carries its movie (`Photo.motion`);
/// the movie is not listed again. Paired by name, case aside; else by Apple's ContentIdentifier, which the still's
/// maker's note and the movie's QuickTime keys share (a pair renamed apart, an edited still beside its movie).
public enum LivePhotos {
    /// The extensions a Live Photo's movie has.
    static let movieExtensions: Set<String> = ["mov"]

    /// A still's or a movie's key: its folder's bytes and its name without the extension, lower case; nil for any
    /// other file.
    private static func key(_ path: FilePath, movie: Bool) -> [UInt8]? {
        guard let name = path.lastComponent, let ext = name.extension?.lowercased() else { return nil }
        guard movie ? movieExtensions.contains(ext) : !ImageFormat.isClipName(name.string) && ImageFormat.allExtensions.contains(ext)
        else { return nil }
        return path.removingLastComponent().bytes + [0] + Array(name.stem.lowercased().utf8)
    }

    /// Among `paths`: the movies that are a still's (their places), and each such still's movie (by the still's place).
    static func pairs(_ paths: [FilePath]) -> (movies: Set<Int>, movieOf: [Int: FilePath]) {
        // The movies first: they are few (none in most libraries), and a library without one reads no still's key
        // (a dictionary of 100,000 stills' keys took 200 ms of a warm launch).
        var movieByKey: [[UInt8]: Int] = [:]
        for (i, path) in paths.enumerated() {
            if let key = key(path, movie: true), movieByKey[key] == nil { movieByKey[key] = i }
        }
        guard !movieByKey.isEmpty else { return ([], [:]) }
        var movies: Set<Int> = [], movieOf: [Int: FilePath] = [:]
        for (i, path) in paths.enumerated() {
            // A movie pairs with the first still of its name.
            guard let key = key(path, movie: false), let movie = movieByKey.removeValue(forKey: key) else { continue }
            movies.insert(movie)
            movieOf[i] = paths[movie]
        }
        pairByIdentifier(paths, movies: &movies, movieOf: &movieOf)
        return (movies, movieOf)
    }

    /// A Live Photo's movie is short: a longer `.MOV` is a film of its own, and its `moov` is not read.
    static let largestMovie = 32 << 20

    /// The movies left unpaired by name, paired with a still of their folder that has their ContentIdentifier. Only a
    /// folder with such a movie has its stills' EXIF read, and only the stills left unpaired.
    private static func pairByIdentifier(_ paths: [FilePath], movies: inout Set<Int>, movieOf: inout [Int: FilePath]) {
        var wanted: [[UInt8]: [String: Int]] = [:]
        for (i, path) in paths.enumerated() where !movies.contains(i) && isMovieName(path) && size(of: path) <= largestMovie {
            guard let id = PhotoFacts.read(path: path)?.contentIdentifier else { continue }
            wanted[path.removingLastComponent().bytes, default: [:]][id] = i
        }
        guard !wanted.isEmpty else { return }
        for (i, path) in paths.enumerated() where movieOf[i] == nil && key(path, movie: false) != nil {
            guard let inFolder = wanted[path.removingLastComponent().bytes],
                  let id = PhotoFacts.read(path: path)?.contentIdentifier, let movie = inFolder[id], !movies.contains(movie) else { continue }
            movies.insert(movie)
            movieOf[i] = paths[movie]
        }
    }

    private static func size(of path: FilePath) -> Int {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0 ? Int(info.st_size) : Int.max
    }

    /// `photos` with the movies of their Live Photos taken out and carried by their stills.
    public static func joined(_ photos: [Photo]) -> [Photo] {
        let (movies, movieOf) = pairs(photos.map(\.file))
        guard !movies.isEmpty else { return photos }
        return photos.enumerated().compactMap { i, photo in
            guard !movies.contains(i) else { return nil }
            var photo = photo
            if let movie = movieOf[i] { photo.motion = movie }
            return photo
        }
    }

    /// The place among `listed` of the still whose movie `movie` is, one carrying none yet: by name, else by the
    /// ContentIdentifier (read only when the movie is short and names one, of the stills of its folder).
    static func still(of movie: FilePath, among listed: [Photo]) -> Int? {
        let free = listed.indices.filter { listed[$0].motion == nil && key(listed[$0].file, movie: false) != nil }
        if let byName = free.first(where: { isMovie(movie, of: listed[$0].file) }) { return byName }
        guard size(of: movie) <= largestMovie, let id = PhotoFacts.read(path: movie)?.contentIdentifier else { return nil }
        let folder = movie.removingLastComponent()
        return free.first { listed[$0].file.removingLastComponent() == folder && PhotoFacts.read(path: listed[$0].file)?.contentIdentifier == id }
    }

    /// The place among `listed` of the movie (listed as a clip of its own) that is `still`'s: by name, else by the
    /// ContentIdentifier (read only when its folder has such a movie).
    static func movie(of still: FilePath, among listed: [Photo]) -> Int? {
        guard key(still, movie: false) != nil else { return nil }
        let folder = still.removingLastComponent()
        let movies = listed.indices.filter { isMovieName(listed[$0].file) && listed[$0].file.removingLastComponent() == folder }
        if let byName = movies.first(where: { isMovie(listed[$0].file, of: still) }) { return byName }
        guard !movies.isEmpty, let id = PhotoFacts.read(path: still)?.contentIdentifier else { return nil }
        return movies.first { size(of: listed[$0].file) <= largestMovie && PhotoFacts.read(path: listed[$0].file)?.contentIdentifier == id }
    }

    /// Whether `path` is named as a Live Photo's movie.
    static func isMovieName(_ path: FilePath) -> Bool { key(path, movie: true) != nil }

    /// Whether `movie` is the Live Photo movie of `still`.
    static func isMovie(_ movie: FilePath, of still: FilePath) -> Bool {
        guard let key = key(movie, movie: true) else { return false }
        return key == Self.key(still, movie: false)
    }
}
