import Geometry
import Input
import SceneGraph

/// The `?` key's card, while it shows: an overlay that Escape closes first (before the photo or the search).
final class HelpController {
    private var card: HelpCard?

    /// Shows the card over `root` (a window of `size`), or hides it.
    func toggle(in size: Size, over root: Node) {
        if let card {
            card.root.removeFromParent()
            self.card = nil
        } else {
            let card = HelpCard()
            card.layOut(in: size)
            root.addChild(card.root)
            self.card = card
        }
    }

    /// Escape, while the card shows, closes it; everything else passes.
    func handle(_ event: InputEvent) -> Handled {
        guard let card, case .key("Escape", _) = event else { return .passed }
        card.root.removeFromParent()
        self.card = nil
        return .taken(nil)
    }

    func layOut(in size: Size) { card?.layOut(in: size) }
}
