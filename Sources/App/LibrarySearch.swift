import Library
import SystemPackage

/// The Search tab's words and what each photo of the library is searched by: its name, its camera, its date,
/// and the folders it is in below the one the library was opened at.
final class LibrarySearch {
    /// The words, while the Search tab shows (nil: another tab).
    var query: PhotoQuery?
    /// What each photo of the library is searched by, made at the first search (again once the library changes).
    private var haystacks: [PhotoQuery.Haystack]?
    /// The folder the library was opened at (made when first needed: a launch without a search makes none).
    private var root: [FilePath.Component]?
    private let firstLibrary: [Photo]

    init(library: [Photo]) { firstLibrary = library }

    /// The library changed: its photos are searched by what they are now.
    func libraryChanged() { haystacks = nil }

    /// Whether the words, if any, find `photo`.
    func finds(_ photo: Photo) -> Bool {
        guard let query, !query.isEmpty else { return true }
        return query.matches(photo, folders: folders(of: photo))
    }

    /// What the words find in `library` (all of it without words).
    func found(in library: [Photo]) -> [Photo] {
        guard let query, !query.isEmpty else { return library }
        if haystacks == nil { haystacks = library.map { PhotoQuery.Haystack($0, folders: folders(of: $0)) } }
        return zip(library, haystacks ?? []).filter { query.matches($1) }.map(\.0)
    }

    /// The names of the folders `photo` is in, below the one the library was opened at.
    private func folders(of photo: Photo) -> [String] {
        let root = self.root ?? LibrarySearch.commonFolder(of: firstLibrary)
        self.root = root
        let parents = Array(photo.file.removingLastComponent().components)
        return parents.dropFirst(root.count).map(\.string)
    }

    /// The deepest folder every photo of `photos` is in.
    static func commonFolder(of photos: [Photo]) -> [FilePath.Component] {
        guard let first = photos.first else { return [] }
        var common = Array(first.file.removingLastComponent().components)
        for photo in photos.dropFirst() {
            let folder = Array(photo.file.removingLastComponent().components)
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return common
    }
}
