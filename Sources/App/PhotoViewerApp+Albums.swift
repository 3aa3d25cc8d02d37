import Grid
import Library
import SystemPackage

/// The Albums tab: a cover for each folder that holds photos (its newest photo, its name, its count); a
/// tap on one pushes in the album's photos, where the photo transition works as in the library; Back,
/// Escape or a swipe from the left edge returns to the covers.
extension PhotoViewerApp {
    /// The Albums tab's covers, each in its album's place. `push`: coming back from an album (nil: the tab
    /// was chosen, or the library changed under the covers, when they glide to their new places).
    func showCovers(push: GridScreen.Push?) {
        let shownBefore = grid.showsCovers ? photos.map(\.file) : nil
        albums = Album.albums(of: library)
        openedAlbum = nil
        let covers = albums.map { library[$0.cover] }
        grid.bars.setTitle("Albums", back: nil)
        if let shownBefore, push == nil {
            let placeOf = Dictionary(shownBefore.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            show(covers, origins: covers.map { placeOf[$0.file] })
        } else {
            replace(with: covers, contents: .covers, push: push)
        }
        for (i, album) in albums.enumerated() {
            let clips = album.photos.count { library[$0].isClip }
            grid.setCaption(album.name, detail: ItemCount.words(items: album.photos.count, clips: clips), at: i)
        }
        grid.bars.setEmptyState(title: "No Albums", detail: emptyMessage)
    }

    /// Cover `index` was chosen (tapped, or Return on it): its album pushes in.
    func openAlbum(at index: Int) {
        guard grid.showsCovers, navigator.isGridActive, albums.indices.contains(index) else { return }
        let album = albums[index]
        coversOffset = grid.scrollOffset
        openedAlbum = album.folder
        grid.bars.setTitle(album.name, back: "Albums")
        replace(with: album.photos.map { library[$0] }, push: .forward)
        grid.bars.setEmptyState(title: "No Photos", detail: emptyMessage)
    }

    /// Back from an album to the covers, scrolled as they were (nothing when no album is open).
    func closeAlbum() {
        guard openedAlbum != nil, grid.bars.shownTab == .albums, navigator.isGridActive else { return }
        showCovers(push: .back)
        grid.scrolling.setOffset(min(coversOffset, grid.scrolling.range.upperBound))
        thumbnails.update()
    }

    /// Whether the grid shows `photo` where it belongs: in the open album, or found by the search.
    func isShown(_ photo: Photo) -> Bool {
        if let openedAlbum { return photo.file.removingLastComponent() == openedAlbum }
        return search.finds(photo)
    }

    /// The grid shows `shown` in place of what it showed (nothing kept: each cell waits for its thumbnail), as
    /// `contents` (photos, albums' covers, cards' tiles) under `sections` (nil: a timeline's days); `push`, how the new
    /// page comes (nil: at once).
    func replace(with shown: [Photo], contents: GridContents = .photos, sections: [GridSection]? = nil, clips: Int? = nil,
                 push: GridScreen.Push?) {
        navigator.forgetDecodes()
        thumbnails.forgetRequests()
        photos = shown
        indexOfFile.forget()
        let origins = [Int?](repeating: nil, count: shown.count)
        navigator.listChanged(to: photos, origins: origins)
        grid.replaceContents(count: shown.count, sections: sections ?? (isTimeline && contents != .covers ? days.sections(of: photos) : []),
                             contents: contents, atNewest: isTimeline && contents != .covers, push: push)
        thumbnails.listChanged(to: photos, origins: origins, clips: clips)
        if contents == .photos, let favorites = navigator.favorites, !favorites.isEmpty {
            for (i, photo) in photos.enumerated() where favorites.contains(photo.file) { grid.setFavorite(true, at: i) }
        }
        setNeedsDisplay()
    }
}
