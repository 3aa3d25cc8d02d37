import Imaging
import SystemPackage

/// A tree's timeline as the library index remembers it: what a launch on a large tree shows at once, while
/// the tree is walked on another thread to confirm it (`PhotoLibrary.collect(remembered:)`). What the walk
/// finds otherwise (photos new, gone, or changed since) comes to the grid as the live library's changes do.
public struct RememberedTimeline: Sendable {
    /// Oldest first.
    public let photos: [Photo]
    /// Each photo's file as indexed, by place: its size and modification time (ns), what says it is the same.
    private let sizes: [Int64]
    private let modified: [Int64]

    /// The photos the index knows under `root`, oldest first; nil when it knows fewer than `atLeast` (a walk
    /// of such a tree is quick enough to wait for).
    public static func read(under root: FilePath, index: LibraryIndex, atLeast: Int) -> RememberedTimeline? {
        var paths: [[UInt8]] = [], dates: [PhotoDate] = [], cameras: [String?] = [], sizes: [Int64] = [], modified: [Int64] = []
        var movements: [Photo.Movement] = [], colours: [UInt32?] = []
        var enough = true
        index.forEachEntry(under: root, expecting: { count in
            enough = count >= max(atLeast, 1)
            guard enough else { return }
            paths.reserveCapacity(count)
            dates.reserveCapacity(count)
            cameras.reserveCapacity(count)
            movements.reserveCapacity(count)
            colours.reserveCapacity(count)
            sizes.reserveCapacity(count)
            modified.reserveCapacity(count)
        }) { path, entry in
            guard enough else { return }
            paths.append(path)
            dates.append(entry.facts.date.map { PhotoDate($0) } ?? PhotoDate(modified: Double(entry.modified) / 1e9))
            cameras.append(entry.facts.camera)
            movements.append(Photo.Movement(entry.facts))
            colours.append(entry.colour)
            sizes.append(entry.size)
            modified.append(entry.modified)
        }
        guard enough, !paths.isEmpty else { return nil }
        // As a walk orders them: by when taken; photos of the same moment by path (a walk's is its folders' order).
        let order = paths.indices.sorted { a, b in
            dates[a].instant != dates[b].instant ? dates[a].instant < dates[b].instant : paths[a].lexicographicallyPrecedes(paths[b])
        }
        var photos = order.map { Photo(file: FilePath(bytes: paths[$0]), date: dates[$0], camera: cameras[$0], movement: movements[$0],
                                 colour: colours[$0]) }
        // As the walk lists them: a Live Photo's movie is its still's (`LivePhotos`).
        let (movies, movieOf) = LivePhotos.pairs(photos.map(\.file))
        for (still, movie) in movieOf { photos[still].motion = movie }
        let kept = order.indices.filter { !movies.contains($0) }
        return RememberedTimeline(photos: kept.map { photos[$0] }, sizes: kept.map { sizes[order[$0]] },
                                  modified: kept.map { modified[order[$0]] })
    }

    /// Each photo's place, by file (places, not photos: a dictionary of 100,000 photos is memory a launch's
    /// peak would carry).
    func places() -> [FilePath: Int] {
        var places: [FilePath: Int] = [:]
        places.reserveCapacity(photos.count)
        for (i, photo) in photos.enumerated() { places[photo.file] = i }
        return places
    }

    /// Whether photo `k`'s file is still the one indexed.
    func isSame(_ k: Int, size: Int64, modified: Int64) -> Bool { sizes[k] == size && self.modified[k] == modified }

    /// What the walk `found` that differs from these photos: each photo new or changed (its date or camera read
    /// anew) and each one gone, as changes to the folders; the new and changed ones come with what was read of
    /// them, so the list places them without reading them again.
    public func changes(to found: [Photo]) -> FolderWatcher.Changes {
        var before = places()
        var changes = FolderWatcher.Changes()
        for photo in found {
            if let old = before.removeValue(forKey: photo.file), photos[old] == photo { continue }
            changes.touched.insert(photo.file)
            changes.read[photo.file] = photo
        }
        changes.touched.formUnion(before.keys)   // remembered, and not found: gone
        return changes
    }
}
