import Geometry
import SceneGraph

/// The `?` (or F1) key's card: what the keys and gestures do, so that slow motion or the debug
/// overlay can be found without the README.
final class HelpCard {
    /// The gestures, then every key binding.
    static let entries: [(keys: String, action: String)] = [
        ("click, tap", "open a photo; in a photo, show or hide the bar"),
        ("double click or tap", "zoom to 3× there, or back to fit"),
        ("wheel, pinch", "zoom the open photo"),
        ("pinch, Ctrl+wheel on the grid", "fewer or more columns"),
        ("drag", "scroll; turn the page; move a zoomed photo"),
        ("drag down, pinch in", "close the photo"),
        ("press a flying photo", "take it; let go to open it"),
    ] + KeyBinding.all.map { ($0.label.replacingOccurrences(of: "`", with: ""), $0.summary) }
    /// Card geometry, px.
    static let lineHeight = 22.0
    static let keysWidth = 210.0
    static let width = 580.0
    static let padding = 16.0

    let root = Node(name: "help")

    init() {
        root.backgroundColor = Color(white: 0, alpha: 0.8)
        root.cornerRadius = 12
        root.clipsToBounds = true
        for (i, entry) in HelpCard.entries.enumerated() {
            let y = HelpCard.padding + Double(i) * HelpCard.lineHeight
            let keys = Node(name: "help.keys.\(i)",
                            frame: Rect(x: HelpCard.padding, y: y, width: HelpCard.keysWidth - HelpCard.padding,
                                        height: HelpCard.lineHeight))
            keys.text = TextContents(entry.keys, fontSize: 13, weight: .bold, color: .white, alignment: .leading)
            let action = Node(name: "help.action.\(i)",
                              frame: Rect(x: HelpCard.keysWidth, y: y, width: HelpCard.width - HelpCard.keysWidth - HelpCard.padding,
                                          height: HelpCard.lineHeight))
            action.text = TextContents(entry.action, fontSize: 13, color: .white, alignment: .leading)
            root.addChild(keys)
            root.addChild(action)
        }
    }

    /// Centred in a window of `size` (a smaller window clips the card's edges, its text elided).
    func layOut(in size: Size) {
        let height = 2 * HelpCard.padding + Double(HelpCard.entries.count) * HelpCard.lineHeight
        let width = min(HelpCard.width, size.width - 16)
        root.frame = Rect(x: ((size.width - width) / 2).rounded(), y: max(8, ((size.height - height) / 2).rounded()),
                          width: width, height: height)
    }
}
