import Foundation
import Library
import SystemPackage

/// Delete: the open photo (in the grid, the chosen one) goes to the desktop's Trash, never unlinked. It
/// leaves the library as a file deleted elsewhere does (its photo shrinks away, the viewer shows the next,
/// the grid closes the gap), and a card offers it back for a few seconds (a tap on it, or Ctrl+Z).
extension PhotoViewerApp {
    /// Delete, or the viewer's trash button.
    func trashChosenPhoto() {
        let chosen = navigator.viewer.map(\.index) ?? (navigator.isGridActive && !grid.showsCovers ? grid.keyboardSelection : nil)
        guard let chosen, photos.indices.contains(chosen), !navigator.isTransitioning else { return }
        let photo = photos[chosen]
        guard let trash else {
            return logger.warning("\(photo.path): not moved to the trash: the viewer is read-only (--read-only)")
        }
        do {
            let item = try trash.trash(photo.file)
            logger.info("\(photo.path) moved to the trash: \(String(decoding: item.file).escapingControlCharacters)")
            // The list first: it changes only while nothing moves, and the card fades in.
            filesChanged(FolderWatcher.Changes(touched: [photo.file]))
            showUndoCard(for: item, photo: photo)
        } catch {
            logger.warning("\(error)")
        }
    }

    /// Ctrl+Z, or a tap on the card: the photo it names comes back where it was.
    func undoTrash() {
        guard let card = undoCard, let trash else { return }
        hideUndoCard()
        do {
            try trash.restore(card.item)
            logger.info("\(String(decoding: card.item.original).escapingControlCharacters) put back from the trash")
            returning = card.photoFile
            filesChanged(FolderWatcher.Changes(touched: [card.photoFile]))
        } catch {
            logger.warning("\(error)")
        }
    }

    /// When the undo card goes (clock time), while it shows: the loop wakes then.
    public var nextDeadline: Double? { undoCard?.expiry }

    /// The card goes once its time is up (every tick, and the window loop between frames).
    public func passTime() {
        if let card = undoCard, animator.clock.now >= card.expiry { hideUndoCard() }
    }

    private func showUndoCard(for item: Trash.Item, photo: Photo) {
        if let old = undoCard { old.root.removeFromParent() }
        let card = UndoCard(item: item, photo: photo, now: animator.clock.now)
        card.layOut(in: size)
        root.addChild(card.root)
        undoCard = card
        animator.animate(card.root, \.alpha, to: 1, with: UndoCard.fade)
        setNeedsDisplay()
    }

    private func hideUndoCard() {
        guard let card = undoCard else { return }
        undoCard = nil
        animator.animate(card.root, \.alpha, to: 0, with: UndoCard.fade) { _ in card.root.removeFromParent() }
        setNeedsDisplay()
    }
}
