import Geometry
import SceneGraph

/// The segmented control at the foot of a timeline's Library tab, over the photos and above the tab bar: Years,
/// Months, Days, All Photos, the one shown on a white segment.
public struct ViewPicker {
    let node = Node(name: "viewPicker")
    /// By view, in `LibraryView.allCases` order.
    let segments: [Node]
    private let chosen = Node(name: "viewPicker.chosen")

    /// Its height and the room kept for it over the tab bar, px.
    static let height = 32.0
    static let band = 48.0
    static let widest = 380.0

    init() {
        node.backgroundColor = Color(hex: 0xE3E3E8, alpha: 0.94)
        node.cornerRadius = ViewPicker.height / 2
        node.isHidden = true
        chosen.backgroundColor = .white
        chosen.cornerRadius = ViewPicker.height / 2 - 2
        chosen.borderColor = Color(hex: 0xC6C6C8)
        chosen.borderWidth = 0.5
        segments = LibraryView.allCases.map { Node(name: "viewPicker.\($0.title)") }
        node.addChild(chosen)
        segments.forEach(node.addChild)
    }

    /// Whether it shows.
    public var isShown: Bool { !node.isHidden }

    /// It shows with `view` chosen (nil: it hides).
    func show(_ view: LibraryView?) {
        node.isHidden = view == nil
        for (v, segment) in zip(LibraryView.allCases, segments) {
            segment.text = TextContents(v.title, fontSize: GridStyle.tabFont + 1, weight: v == view ? .bold : .regular, color: GridStyle.label)
        }
        if let view { chosen.frame = segments[view.rawValue].frame.insetBy(dx: 2, dy: 2) }
    }

    /// The view whose segment is under `point` (window coordinates), while it shows.
    func view(at point: Point) -> LibraryView? {
        guard isShown, node.frame.contains(point) else { return nil }
        let w = node.frame.width / Double(segments.count)
        return LibraryView(rawValue: min(segments.count - 1, Int((point.x - node.frame.minX) / w)))
    }

    /// Centred over the tab bar of a window of `size`.
    func layOut(in size: Size) {
        let w = min(ViewPicker.widest, size.width - 2 * GridStyle.barPadding)
        node.frame = Rect(x: ((size.width - w) / 2).rounded(), y: size.height - GridStyle.tabBarHeight - (ViewPicker.band + ViewPicker.height) / 2,
                          width: w, height: ViewPicker.height)
        let each = w / Double(segments.count)
        for (i, segment) in segments.enumerated() {
            segment.frame = Rect(x: (Double(i) * each).rounded(), y: 0, width: each.rounded(), height: ViewPicker.height)
        }
        if let i = segments.firstIndex(where: { $0.text?.weight == .bold }) { chosen.frame = segments[i].frame.insetBy(dx: 2, dy: 2) }
    }
}
