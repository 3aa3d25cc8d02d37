import Animation
import Foundation
import Geometry
import Input
import Library
import Logging
import SceneGraph
import SystemPackage

/// Delete: a photo goes to the desktop's Trash, never unlinked. It leaves the library as a file deleted
/// elsewhere does (the app applies the change this returns: its photo shrinks away, the viewer shows the
/// next, the grid closes the gap), and a card offers it back for a few seconds (a tap on it, or Ctrl+Z).
/// The card is an overlay: a press on it is its own.
final class TrashController {
    /// Where Delete moves photos (nil: `--read-only`, or a run that writes nothing, as most tests are).
    var trash: Trash?
    /// The card offering the last photo moved to the trash back, while it shows.
    private var card: UndoCard?
    /// A press the card took: its release, on the card, puts the photo back.
    private var tookPress = false
    /// A photo put back from the trash: once the list has it again, the viewer (if open) shows it.
    var returning: FilePath?
    /// The movie of the Live Photo the card offers back, moved with its still.
    private var cardMovie: Trash.Item?
    private let animator: Animator
    private let logger: Logger

    init(animator: Animator, logger: Logger) {
        (self.animator, self.logger) = (animator, logger)
    }

    /// Moves `photo` to the trash and shows the card over `root` (a window of `size`): the change the
    /// library takes (nil: nothing moved).
    func trash(_ photo: Photo, in size: Size, over root: Node) -> FolderWatcher.Changes? {
        guard let trash else {
            logger.warning("\(photo.path): not moved to the trash: the viewer is read-only (--read-only)")
            return nil
        }
        do {
            let item = try trash.trash(photo.file)
            logger.info("\(photo.path) moved to the trash: \(String(decoding: item.file).escapingControlCharacters)")
            showCard(for: item, photo: photo, in: size, over: root)
            // A Live Photo goes whole: its movie with it (and back with it).
            cardMovie = photo.motion.flatMap { movie in
                do {
                    return try trash.trash(movie)
                } catch {
                    logger.warning("\(error)")
                    return nil
                }
            }
            return FolderWatcher.Changes(touched: Set([photo.file] + (cardMovie.map { [$0.original] } ?? [])))
        } catch {
            logger.warning("\(error)")
            return nil
        }
    }

    /// Ctrl+Z, or a tap on the card: the photo it names comes back where it was; the change the library takes.
    func undo() -> FolderWatcher.Changes? {
        guard let card, let trash else { return nil }
        hideCard()
        do {
            try trash.restore(card.item)
            logger.info("\(String(decoding: card.item.original).escapingControlCharacters) put back from the trash")
            returning = card.photoFile
            guard let movie = cardMovie else { return FolderWatcher.Changes(touched: [card.photoFile]) }
            cardMovie = nil
            do {
                try trash.restore(movie)
            } catch {
                logger.warning("\(error)")
            }
            return FolderWatcher.Changes(touched: [card.photoFile, movie.original])
        } catch {
            logger.warning("\(error)")
            return nil
        }
    }

    /// A press on the card, and its release there (the photo comes back); anything else passes.
    func handle(_ event: InputEvent) -> Handled {
        switch event {
        case .pointerDown(let at, 1, _) where card?.contains(at) == true, .touch(.begin, _, let at, _) where card?.contains(at) == true:
            tookPress = true
            return .taken(nil)
        case .pointerUp(let at, 1, _) where tookPress, .touch(.end, _, let at, _) where tookPress:
            tookPress = false
            return .taken(card?.contains(at) == true ? .undo : nil)
        case .pointerMove where tookPress, .touch where tookPress:
            return .taken(nil)
        default:
            return .passed
        }
    }

    /// When the card goes (clock time), while it shows: the loop wakes then.
    var nextDeadline: Double? { card?.expiry }

    /// The card goes once its time is up (every tick, and the window loop between frames).
    func passTime() {
        if let card, animator.clock.now >= card.expiry { hideCard() }
    }

    func layOut(in size: Size) { card?.layOut(in: size) }

    private func showCard(for item: Trash.Item, photo: Photo, in size: Size, over root: Node) {
        if let old = card { old.root.removeFromParent() }
        let card = UndoCard(item: item, photo: photo, now: animator.clock.now)
        card.layOut(in: size)
        root.addChild(card.root)
        self.card = card
        animator.animate(card.root, \.alpha, to: 1, with: UndoCard.fade)
    }

    private func hideCard() {
        guard let card else { return }
        self.card = nil
        animator.animate(card.root, \.alpha, to: 0, with: UndoCard.fade) { _ in card.root.removeFromParent() }
    }
}
