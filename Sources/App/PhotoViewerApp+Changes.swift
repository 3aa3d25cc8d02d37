import Foundation
import Library
import SystemPackage

/// The photos shown change: files changed in the library's folders (the live library), or the Search tab's
/// words. Either way the grid, the viewer and the thumbnails are told where each photo went.
extension PhotoViewerApp {
    /// Files changed in the photos' folders (`FolderWatcher`): a photo written over shows its new contents
    /// at once, in the grid and in the viewer, without leaving either; photos added, removed or renamed
    /// change the grid and the viewer once nothing moves and no finger is on them. The open photo's file
    /// gone, the viewer shows the next photo, or, none left, the photo flies home (and its cell then
    /// shrinks away).
    public func filesChanged(_ changes: FolderWatcher.Changes) {
        var rest = changes
        for path in changes.touched.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            guard let i = indexOfFile[path], PhotoLibrary.isFile(path) else { continue }
            reload(i)
            rest.touched.remove(path)
        }
        pendingChanges.add(rest)
        applyPendingChanges()
    }

    private func reload(_ i: Int) {
        logger.debug("\(photos[i].path) changed on disk: shown again")
        thumbnails.reload(i)
        navigator.reload(i)
        setNeedsDisplay()
    }

    /// The list changes only when still: nothing moving or in the air, no finger down.
    func applyPendingChanges() {
        guard !pendingChanges.isEmpty, !navigator.isTransitioning, !isAnimating, !interaction.isTouching, navigator.pendingOpen == nil else { return }
        let started = ContinuousClock.now
        let update = PhotoListUpdate(library, changes: pendingChanges, isTimeline: isTimeline)
        // Where each photo of the old library was shown (the search may show only some).
        let shownAt = library.map { indexOfFile[$0.file] }
        let kept = update.photos.indices.filter { isShown(update.photos[$0]) }
        let origins = kept.map { update.origins[$0].flatMap { shownAt[$0] } }
        if kept.isEmpty, !navigator.keepsOpenPhoto(origins) {
            return navigator.close()   // the changes wait for the grid
        }
        pendingChanges = FolderWatcher.Changes()
        for problem in update.problems { logger.warning("\(problem)") }
        for old in update.rewritten { if let i = shownAt[old] { reload(i) } }
        guard update.changesList else { return }
        let stayed = update.origins.compactMap { $0 }.count
        let said = "\(update.photos.count) photos, \(update.photos.count - stayed) new, \(library.count - stayed) gone, \(update.renamed) renamed"
        library = update.photos
        (search.libraryChanged(), views.libraryChanged())
        if grid.showsCovers { showCovers(push: nil) } else if grid.shownView != nil { views.refresh(in: self, keepingOffset: true) } else { show(kept.map { library[$0] }, origins: origins) }
        logger.debug("the folder changed: \(said) (taken in \(started.millisecondsUntilNow) ms)")
    }

    /// The grid, the viewer and the thumbnails show `shown`: photo `i` is the one shown at `origins[i]` before
    /// (nil: it was not shown).
    func show(_ shown: [Photo], origins: [Int?]) {
        // Every request names a place: all are let go before any is made for the new places.
        navigator.forgetDecodes()
        thumbnails.forgetRequests()
        photos = shown
        indexOfFile.forget()
        navigator.listChanged(to: photos, origins: origins, preferring: trashing.returning.flatMap { indexOfFile[$0] })
        trashing.returning = nil
        grid.applyChange(origins: origins, sections: isTimeline ? days.sections(of: photos) : [])
        thumbnails.listChanged(to: photos, origins: origins)
        if !grid.showsCovers, let favorites = navigator.favorites {
            for (i, origin) in origins.enumerated() where origin == nil && favorites.contains(photos[i].file) {
                grid.setFavorite(true, at: i)
            }
        }
        setNeedsDisplay()
    }
}
