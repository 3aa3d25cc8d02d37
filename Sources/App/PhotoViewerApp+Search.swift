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
        guard navigator.isGridActive, tab != grid.bars.shownTab else { return }
        let fromAlbums = grid.bars.shownTab == .albums
        grid.bars.show(tab)
        search.query = tab == .search ? PhotoQuery("", days: days) : nil
        grid.bars.showSearch("")
        grid.showViewPicker(tab == .library && isTimeline ? views.shown : nil)
        if tab == .albums { return showCovers(push: nil) }
        if views.leaveTab(cards: grid.shownView != nil) || fromAlbums {
            openedAlbum = nil
            grid.bars.setTitle("Photos", back: nil)
            replace(with: library, push: nil)
        }
        showSearched()
        if tab == .library, views.shown != .all { views.refresh(in: self, keepingOffset: false) }
    }

    /// The Search tab's field took a key: typed, deleted or cleared (Escape on an empty field leaves the tab).
    /// False when the key is not the field's (arrows, Return, keys with Ctrl: the grid's).
    func typeInSearch(_ key: String, control: Bool) -> Bool {
        guard let query = search.query, navigator.isGridActive, !control else { return false }
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
        search.query = PhotoQuery(text, days: days)
        grid.bars.showSearch(text)
        showSearched()
        return true
    }

    /// The grid shows what the search finds (every photo without one), each found photo gliding from where
    /// it was; a search that finds nothing says so.
    private func showSearched() {
        let started = ContinuousClock.now
        let found = search.found(in: library)
        if found.map(\.file) != photos.map(\.file) { show(found, origins: found.map { indexOfFile[$0.file] }) }
        let text = search.query?.text ?? ""
        logger.debug("search “\(text)”: \(found.count) of \(library.count) photos in \(started.millisecondsUntilNow) ms")
        if found.isEmpty, !text.isEmpty {
            grid.bars.setEmptyState(title: "No Results", detail: "Nothing matches “\(text)”")
        } else {
            grid.bars.setEmptyState(title: "No Photos", detail: emptyMessage)
        }
        setNeedsDisplay()
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
