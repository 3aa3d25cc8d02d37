import Foundation
import Grid
import Library
import SystemPackage

/// The tabs: Library shows every photo; Albums the folders' covers (`PhotoViewerApp+Albums`); Search the
/// photos its words find, the grid changing as they are typed (typing anywhere on the tab types into its
/// field; `/` on the grid starts a search).
extension PhotoViewerApp {
    /// Shows `tab` (only from the grid: the viewer keeps what it pages through).
    func show(_ tab: GridScreen.Tab) {
        guard navigator.isGridActive, tab != grid.shownTab else { return }
        let fromAlbums = grid.shownTab == .albums
        grid.show(tab)
        search = tab == .search ? PhotoQuery("", days: days) : nil
        grid.showSearch("")
        if tab == .albums { return showCovers(push: nil) }
        if fromAlbums {
            openedAlbum = nil
            grid.setTitle("Photos", back: nil)
            replace(with: library, covers: false, push: nil)
        }
        showSearched()
    }

    /// The Search tab's field took a key: typed, deleted or cleared (Escape on an empty field leaves the tab).
    /// False when the key is not the field's (arrows, Return, keys with Ctrl: the grid's).
    func typeInSearch(_ key: String, control: Bool) -> Bool {
        guard let query = search, navigator.isGridActive, !control else { return false }
        var text = query.text
        switch key {
        case "BackSpace": text = String(text.dropLast())
        case "Escape":
            guard !text.isEmpty else {
                show(.library)
                return true
            }
            text = ""
        default:
            guard let typed = SearchKeys.character(forKey: key) else { return false }
            text.append(typed)
        }
        search = PhotoQuery(text, days: days)
        grid.showSearch(text)
        showSearched()
        return true
    }

    /// Whether the search, if any, finds `photo`.
    func isSearched(_ photo: Photo) -> Bool {
        guard let search, !search.isEmpty else { return true }
        return search.matches(photo, folders: folders(of: photo))
    }

    /// The grid shows what the search finds (every photo without one), each found photo gliding from where
    /// it was; a search that finds nothing says so.
    private func showSearched() {
        let started = ContinuousClock.now
        let found: [Photo]
        if let search, !search.isEmpty {
            if haystacks == nil { haystacks = library.map { PhotoQuery.Haystack($0, folders: folders(of: $0)) } }
            found = zip(library, haystacks ?? []).filter { search.matches($1) }.map(\.0)
        } else {
            found = library
        }
        if found.map(\.file) != photos.map(\.file) { show(found, origins: found.map { indexOfFile[$0.file] }) }
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        logger.debug("search “\(search?.text ?? "")”: \(found.count) of \(library.count) photos in \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms")
        if let search, found.isEmpty, !search.isEmpty {
            grid.setEmptyState(title: "No Results", detail: "Nothing matches “\(search.text)”")
        } else {
            grid.setEmptyState(title: "No Photos", detail: emptyMessage)
        }
        setNeedsDisplay()
    }

    /// The names of the folders `photo` is in, below the one the library was opened at.
    private func folders(of photo: Photo) -> [String] {
        let parents = Array(photo.file.removingLastComponent().components)
        return parents.dropFirst(libraryRoot.count).map(\.string)
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

/// What a key types into the search field: its character, from its X keysym name.
enum SearchKeys {
    static let named: [String: Character] = [
        "space": " ", "minus": "-", "underscore": "_", "period": ".", "comma": ",", "apostrophe": "'", "colon": ":",
        "adiaeresis": "ä", "odiaeresis": "ö", "udiaeresis": "ü", "ssharp": "ß", "eacute": "é", "egrave": "è",
        "agrave": "à", "aacute": "á", "iacute": "í", "oacute": "ó", "uacute": "ú", "ccedilla": "ç", "ntilde": "ñ",
        "oslash": "ø", "aring": "å", "ae": "æ",
    ]

    static func character(forKey key: String) -> Character? {
        if key.count == 1, let c = key.first, c.isLetter || c.isNumber { return c }
        return named[key]
    }
}
