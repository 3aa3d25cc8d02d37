import Animation
import Geometry
import Library
import SceneGraph
import SystemPackage

/// The card at the bottom of the window for a while after a photo went to the trash: "“name” moved to
/// the Trash   Undo". A tap on it (or Ctrl+Z while it shows) puts the photo back.
final class UndoCard {
    /// How long it shows, s.
    static let duration = 5.0
    static let fade = Motion.curve(.easeInOut, duration: 0.2)
    /// Geometry, points.
    static let width = 360.0
    static let height = 44.0
    static let bottomMargin = 28.0
    static let undoWidth = 72.0
    /// Characters of the photo's name the card says.
    static let longestName = 22

    let root = Node(name: "undo")
    /// "“name” moved to the Trash".
    private let label = Node(name: "undo.label")
    private let undoButton = Node(name: "undo.button")
    /// What went to the trash.
    let item: Trash.Item
    /// The photo's file as the library names it (the item's original is absolute).
    let photoFile: FilePath
    /// When it goes (clock time).
    let expiry: Double

    init(item: Trash.Item, photo: Photo, now: Double) {
        self.item = item
        photoFile = photo.file
        // A long name is cut: the card's words must fit.
        let name = photo.name.count > UndoCard.longestName ? photo.name.prefix(UndoCard.longestName - 1) + "…" : photo.name
        expiry = now + UndoCard.duration
        root.backgroundColor = Color(white: 0.12, alpha: 0.92)
        root.cornerRadius = 12
        root.clipsToBounds = true
        root.alpha = 0
        label.text = TextContents("“\(name)” moved to the Trash", fontSize: 14, color: .white, alignment: .leading)
        undoButton.text = TextContents("Undo", fontSize: 15, weight: .bold, color: Color(hex: 0xFFD60A), alignment: .trailing)
        root.addChild(label)
        root.addChild(undoButton)
    }

    /// At the bottom middle of a window of `size` (narrower in a narrow one).
    func layOut(in size: Size) {
        let width = min(UndoCard.width, size.width - 16)
        root.frame = Rect(x: ((size.width - width) / 2).rounded(), y: size.height - UndoCard.bottomMargin - UndoCard.height,
                          width: width, height: UndoCard.height)
        label.frame = Rect(x: 16, y: 0, width: max(0, width - 16 - UndoCard.undoWidth), height: UndoCard.height)
        undoButton.frame = Rect(x: width - UndoCard.undoWidth - 16, y: 0, width: UndoCard.undoWidth, height: UndoCard.height)
    }

    /// Whether `point` (window coordinates) is on the card.
    func contains(_ point: Point) -> Bool { root.convert(root.bounds, to: nil).contains(point) }
}
