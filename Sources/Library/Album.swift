import Foundation
import SystemPackage

/// A folder that holds photos, as the Albums tab shows it: each folder of the library with a photo
/// directly in it is one (the opened folder too), its photos in the library's order.
public struct Album: Equatable, Sendable {
    public let folder: FilePath
    /// The folder's name, for people.
    public let name: String
    /// Its photos' places in the library, in the library's order (a timeline's: oldest first).
    public let photos: [Int]

    /// The photo its cover shows: the newest of a timeline (the last by name in a folder's order).
    public var cover: Int { photos[photos.count - 1] }

    /// The albums of `library`: the folder every photo is under first (the one opened), then the others
    /// by name as a person reads them ("Trip 2" before "Trip 10", case aside).
    public static func albums(of library: [Photo]) -> [Album] {
        var places: [FilePath: [Int]] = [:]
        for (i, photo) in library.enumerated() { places[photo.file.removingLastComponent(), default: []].append(i) }
        let root = commonFolder(of: places.keys)
        let albums = places.map { folder, photos in
            Album(folder: folder, name: folder.lastComponent.map { String(decoding: $0).escapingControlCharacters } ?? folder.string,
                  photos: photos)
        }
        return albums.sorted { a, b in
            if (a.folder == root) != (b.folder == root) { return a.folder == root }
            let order = a.name.compare(b.name, options: [.caseInsensitive, .numeric, .diacriticInsensitive])
            return order == .orderedSame ? a.folder.bytes.lexicographicallyPrecedes(b.folder.bytes) : order == .orderedAscending
        }
    }

    /// Whether `photo` is one of this album's: directly in its folder.
    public func holds(_ photo: Photo) -> Bool { photo.file.removingLastComponent() == folder }

    private static func commonFolder(of folders: some Collection<FilePath>) -> FilePath? {
        guard var common = folders.first.map({ Array($0.components) }) else { return nil }
        for folder in folders.dropFirst() { common = Array(zip(common, folder.components).prefix { $0 == $1 }.map(\.0)) }
        let root = folders.first!.root.map { FilePath(root: $0, common) } ?? FilePath(root: nil, common)
        return root
    }
}
