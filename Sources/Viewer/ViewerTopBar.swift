import Geometry
import SceneGraph

/// The viewer's top bar, by its named parts: a back button and the photo's name, then the `…` menu, the trash
/// can (hidden with `--read-only`) and the heart; and on a clip's page, its controls along the viewer's foot, which
/// fade with it. A tap on the photo shows or hides them.
public final class ViewerTopBar {
    /// Its buttons, as a tap finds them; a clip's play button and scrub bar (dragged, or tapped at a time) too.
    public enum Button { case back, more, trash, favorite, play, scrubBar }

    /// Geometry and look, points (the grid's bar style, on the viewer).
    static let height = 56.0
    static let color = Color(hex: 0xF9F9F9, alpha: 0.94)
    static let tint = Color(hex: 0x007AFF)
    static let buttonWidth = 56.0

    public let root = Node(name: "viewer.topBar")
    private let back = Node(name: "viewer.back")
    private let title = Node(name: "viewer.title")
    private let favorite = Node(name: "viewer.favorite")
    private let more = Node(name: "viewer.more")
    private let trash = Node(name: "viewer.trash")
    /// A clip's play button and scrub bar: a child of the bar, placed at the window's foot, so that they fade together.
    public let clipControls = ClipControls()

    init(title text: String) {
        root.backgroundColor = ViewerTopBar.color
        back.text = TextContents("‹ Photos", fontSize: 17, color: ViewerTopBar.tint, alignment: .leading)
        title.text = TextContents(text, fontSize: 15, weight: .bold, color: .black)
        // A lid with its handle over a can, in the bar's tint.
        for (name, rect) in [("handle", Rect(x: 24, y: 15, width: 8, height: 3)), ("lid", Rect(x: 18, y: 18, width: 20, height: 2.5)),
                             ("can", Rect(x: 20.5, y: 22, width: 15, height: 18))] {
            let part = Node(name: "viewer.trash.\(name)", frame: rect)
            part.backgroundColor = ViewerTopBar.tint
            part.cornerRadius = name == "can" ? 2.5 : 1
            trash.addChild(part)
        }
        more.text = TextContents("•••", fontSize: 17, weight: .bold, color: ViewerTopBar.tint)
        for part in [back, title, favorite, trash, more, clipControls.root] { root.addChild(part) }
    }

    /// Whether it offers the trash (the viewer may move photos to the trash).
    var showsTrash: Bool {
        get { !trash.isHidden }
        set { trash.isHidden = !newValue }
    }

    /// The photo's name.
    func setTitle(_ text: String) { title.text?.string = text }

    /// The heart, filled for a favorite.
    func showFavorite(_ isFavorite: Bool) {
        favorite.text = TextContents(isFavorite ? "♥" : "♡", fontSize: 24, color: ViewerTopBar.tint, alignment: .trailing)
    }

    /// The button at `point` (window coordinates), if any (the bar's own showing is the caller's to judge).
    func button(at point: Point) -> Button? {
        let nodes: [(Button, Node)] = [(.back, back), (.more, more), (.trash, trash), (.favorite, favorite)]
        return nodes.first { !$0.1.isHidden && $0.1.convert($0.1.bounds, to: nil).contains(point) }?.0 ?? clipControls.button(at: point)
    }

    /// Across the top of a window `size` points: the back button at the left, the three buttons at the right; the clip's
    /// controls along its foot.
    func layOut(in size: Size) {
        let width = size.width
        let height = ViewerTopBar.height, button = ViewerTopBar.buttonWidth
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        back.frame = Rect(x: 12, y: 0, width: 110, height: height)
        title.frame = Rect(x: 120, y: 0, width: max(0, width - 120 - 184), height: height)
        favorite.frame = Rect(x: max(0, width - 16 - button), y: 0, width: button, height: height)
        trash.frame = Rect(x: max(0, width - 16 - 2 * button), y: 0, width: button, height: height)
        more.frame = Rect(x: max(0, width - 16 - 3 * button), y: 0, width: button, height: height)
        clipControls.layOut(in: size)
    }
}
