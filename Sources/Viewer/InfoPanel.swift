import Animation
import Geometry
import SceneGraph

/// A photo's details under it (a swipe up, or `i`): a panel that rises from the bottom while the photo
/// lifts with the finger, as Photos shows them. `reveal` runs from 0 (hidden) to 1 (shown); the photo
/// rises by half the panel's height, so that it follows the finger and ends in the space left above.
public final class InfoPanel {
    /// Geometry, points.
    static let padding = 20.0
    static let titleHeight = 36.0
    static let rowHeight = 26.0
    static let labelWidth = 96.0
    /// At most this share of the window's height.
    static let largestShare = 0.6
    /// The panel's spring, as the pager settles.
    static let spring = Motion.spring(response: 0.4, dampingRatio: 1)
    /// A release faster than this (points a second) goes its way, wherever the panel is.
    static let flickVelocity = 300.0
    static let background = Color(hex: 0xF2F2F7)

    public let root = Node(name: "viewer.info")
    /// 0: hidden … 1: shown (animated; its change moves the photo).
    public var reveal = 0.0 {
        didSet { if reveal != oldValue { onChange?() } }
    }
    /// Where `reveal` is going: the panel is shown (or being shown).
    public internal(set) var isShown = false
    var onChange: (() -> Void)?
    /// The panel's full height, points.
    public private(set) var height = 0.0

    init() {
        root.backgroundColor = InfoPanel.background
        root.cornerRadius = 12
        root.clipsToBounds = true
        root.isHidden = true
    }

    /// Says `title` (the date) and `rows` (label, value) in a window `width` wide, at most `largest` high.
    func fill(title: String, rows: [(label: String, value: String)], width: Double, largest: Double) {
        root.removeChildren { _ in true }
        let titleNode = Node(name: "viewer.info.title", frame: Rect(x: InfoPanel.padding, y: InfoPanel.padding - 6,
                                                                     width: width - 2 * InfoPanel.padding, height: InfoPanel.titleHeight))
        titleNode.text = TextContents(title, fontSize: 17, weight: .bold, color: .black, alignment: .leading)
        root.addChild(titleNode)
        for (i, row) in rows.enumerated() {
            let y = InfoPanel.padding + InfoPanel.titleHeight + Double(i) * InfoPanel.rowHeight
            let label = Node(name: "viewer.info.label.\(i)", frame: Rect(x: InfoPanel.padding, y: y, width: InfoPanel.labelWidth,
                                                                          height: InfoPanel.rowHeight))
            label.text = TextContents(row.label, fontSize: 13, color: Color(hex: 0x6C6C70), alignment: .leading)
            let value = Node(name: "viewer.info.value.\(i)", frame: Rect(x: InfoPanel.padding + InfoPanel.labelWidth, y: y,
                                                                          width: max(0, width - 2 * InfoPanel.padding - InfoPanel.labelWidth),
                                                                          height: InfoPanel.rowHeight))
            value.text = TextContents(row.value, fontSize: 13, color: .black, alignment: .leading)
            root.addChild(label)
            root.addChild(value)
        }
        height = min(largest, 2 * InfoPanel.padding + InfoPanel.titleHeight + Double(rows.count) * InfoPanel.rowHeight)
    }

    /// `reveal` when a drag took the panel.
    private var dragStart = 0.0

    /// A vertical drag takes the panel where it is.
    func beginDrag() { dragStart = reveal }

    /// The finger `t` points from where it went down (up is negative): the panel follows it. How far it has gone
    /// down past hidden, points.
    func drag(translationY t: Double) -> Double {
        guard height > 0 else { return max(0, t) }
        let wanted = dragStart - t / (height / 2)
        reveal = min(max(wanted, 0), 1)
        return max(0, -wanted * height / 2)
    }

    /// Let go at `v` (points a second, up negative): shown or hidden, by where it is or how it was flicked, and
    /// the spring's speed (reveal a second).
    func release(velocityY v: Double) -> (shown: Bool, velocity: Double) {
        let shown = v < -InfoPanel.flickVelocity || v <= InfoPanel.flickVelocity && reveal > 0.5
        return (shown, height > 0 ? -v / (height / 2) : 0)
    }

    /// Along the bottom of a window of `size`, risen by `reveal`.
    func layOut(in size: Size) {
        root.isHidden = reveal <= 0
        // The rounded top corners show; the bottom ones are below the window.
        root.frame = Rect(x: 0, y: size.height - reveal * height, width: size.width, height: height + 12)
    }

    /// How far the photo has risen, points.
    var lift: Double { reveal * height / 2 }
}
