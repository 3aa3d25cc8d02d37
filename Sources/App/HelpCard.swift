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
        ("twist two fingers", "turn the photo"),
        ("press a flying photo", "take it; let go to open it"),
        ("hold, then drag", "drag the photo into another program"),
    ] + KeyBinding.all.map { ($0.label.replacingOccurrences(of: "`", with: ""), $0.summary) }
    /// Card geometry, px: a line is up to `lineHeight` high, less (down to `tightestLine`) where the
    /// window is too low for all of them.
    static let lineHeight = 22.0
    static let tightestLine = 15.0
    static let keysWidth = 210.0
    static let width = 580.0
    static let padding = 16.0

    let root = Node(name: "help")

    init() {
        root.backgroundColor = Color(white: 0, alpha: 0.8)
        root.cornerRadius = 12
        root.clipsToBounds = true
        for (i, entry) in HelpCard.entries.enumerated() {
            let keys = Node(name: "help.keys.\(i)")
            keys.text = TextContents(entry.keys, fontSize: 13, weight: .bold, color: .white, alignment: .leading)
            let action = Node(name: "help.action.\(i)")
            action.text = TextContents(entry.action, fontSize: 13, color: .white, alignment: .leading)
            root.addChild(keys)
            root.addChild(action)
        }
    }

    /// Centred in a window of `size` (a smaller window clips the card's edges, its text elided).
    func layOut(in size: Size) {
        let count = Double(HelpCard.entries.count)
        let line = min(HelpCard.lineHeight, max(HelpCard.tightestLine, ((size.height - 16 - 2 * HelpCard.padding) / count).rounded(.down)))
        for (i, node) in root.children.enumerated() {
            let y = HelpCard.padding + Double(i / 2) * line
            node.frame = i % 2 == 0
                ? Rect(x: HelpCard.padding, y: y, width: HelpCard.keysWidth - HelpCard.padding, height: line)
                : Rect(x: HelpCard.keysWidth, y: y, width: HelpCard.width - HelpCard.keysWidth - HelpCard.padding, height: line)
        }
        let height = 2 * HelpCard.padding + count * line
        let width = min(HelpCard.width, size.width - 16)
        root.frame = Rect(x: ((size.width - width) / 2).rounded(), y: max(8, ((size.height - height) / 2).rounded()),
                          width: width, height: height)
    }
}
