import Geometry
import SceneGraph

/// The Years, Months and Days cards' captions: a strip along each card's foot with its name and count, over its
/// tiles, in a layer of its own above the cells. Each is made when first needed, and is in the scene while its
/// card's tiles are.
final class CardCaptions {
    let layer = Node(name: "grid.captions")
    /// By card: its name and count.
    private var words: [(name: String, detail: String)] = []
    private var made: [Int: CoverCaption] = [:]
    private var attached: Range<Int> = 0..<0
    /// A year's caption is larger than a month's or a day's.
    private var scale = 1.0

    /// `count` cards, none captioned yet.
    func reset(count: Int, scale: Double) {
        words = Array(repeating: ("", ""), count: count)
        (made, attached, self.scale) = ([:], 0..<0, scale)
        layer.removeAllChildren()
    }

    /// Card `k` says `name` over `detail`.
    func set(_ name: String, detail: String, card k: Int) {
        guard words.indices.contains(k) else { return }
        words[k] = (name, detail)
        made[k]?.title.text?.string = name
        made[k]?.count.text?.string = detail
    }

    /// The captions of the cards whose tiles `tiles` are in the scene, each along its card's foot.
    func attach(tiles: Range<Int>, of layout: GridLayout) {
        guard let cards = layout.tiles else { return }
        let wanted = tiles.isEmpty ? 0..<0 : cards.card(of: tiles.lowerBound)..<(cards.card(of: tiles.upperBound - 1) + 1)
        guard wanted != attached else { return }
        for k in attached where !wanted.contains(k) { made[k]?.node.removeFromParent() }
        for k in wanted where !attached.contains(k) && words.indices.contains(k) {
            let caption = made[k] ?? CoverCaption(named: "card.\(k)", name: words[k].name, detail: words[k].detail, scale: scale)
            made[k] = caption
            let f = cards.cardFrames[k]
            caption.layOut(across: Rect(x: f.minX, y: f.minY + layout.topInset, width: f.width, height: f.height))
            layer.addChild(caption.node)
        }
        attached = wanted
    }

    /// Laid out again (a resize): each is placed anew as it is attached.
    func detachAll() {
        layer.removeAllChildren()
        attached = 0..<0
    }
}
