import Geometry
import SceneGraph

/// A run of the grid's photos under a header: a day of a timeline.
public struct GridSection: Equatable, Sendable {
    /// Its first photo.
    public let start: Int
    /// What its header says ("Today", "Monday", "14 March 2023").
    public let title: String
    /// Its month and year as the date scrubber's bubble says them ("March 2023"); empty: none.
    public let month: String
    /// Its year, marked along the scrubber's rail where the year begins; nil: none.
    public let year: Int?

    public init(start: Int, title: String, month: String = "", year: Int? = nil) {
        self.start = start
        self.title = title
        self.month = month
        self.year = year
    }
}

/// The grid's section headers, in its scrolling content: each lies above its section's first row,
/// and the one whose section passes under the title bar is held just below the bar until the next
/// pushes it up. (Nodes of the grid's `scroll`; the grid lays them out and scrolls them.)
final class SectionHeaders {
    let nodes: [Node]
    /// Each header's words, in its node.
    private let labels: [Node]
    let titles: [String]
    private var layout: GridLayout
    /// The section whose header is held under the bar (or lies where the grid starts).
    private var pinned: Int?

    /// One header for each section of `layout`, titled from `sections` by first photo.
    init(sections: [GridSection], layout: GridLayout) {
        self.layout = layout
        guard layout.headerHeight > 0 else {
            (nodes, labels, titles) = ([], [], [])
            return
        }
        let byStart = Dictionary(sections.map { ($0.start, $0.title) }, uniquingKeysWith: { first, _ in first })
        let titles = layout.sectionStarts.map { byStart[$0] ?? "" }
        let labels = titles.enumerated().map { k, title in
            let label = Node(name: "header.\(k).title")
            label.text = TextContents(title, fontSize: GridStyle.headerFont, weight: .bold, color: GridStyle.label,
                                      alignment: .leading)
            return label
        }
        nodes = labels.enumerated().map { k, label in
            let header = Node(name: "header.\(k)")
            header.backgroundColor = GridStyle.headerBackground
            header.addChild(label)
            return header
        }
        (self.labels, self.titles) = (labels, titles)
    }

    func layOut(_ layout: GridLayout, scrollOffset: Double) {
        self.layout = layout
        for (k, header) in nodes.enumerated() {
            header.frame = layout.headerFrame(ofSection: k)
            labels[k].frame = Rect(x: GridStyle.barPadding, y: 0, width: max(0, layout.width - 2 * GridStyle.barPadding),
                                   height: layout.headerHeight)
        }
        pinned = nil
        pin(at: scrollOffset)
    }

    /// Holds the header of the section under the title bar at scroll offset `offset`.
    func pin(at offset: Double) {
        guard !nodes.isEmpty else { return }
        let k = layout.section(atContentY: offset + layout.topInset)
        if let pinned, pinned != k { nodes[pinned].frame = layout.headerFrame(ofSection: pinned) }
        nodes[k].frame = layout.pinnedHeaderFrame(ofSection: k, scrollOffset: offset)
        pinned = k
    }

    /// While the columns change: each header part-way (`progress`) between where it lies in layout `a`
    /// scrolled to `offsetA` and in `b` scrolled to `offsetB`, in window coordinates; none pinned.
    func show(between a: GridLayout, _ offsetA: Double, and b: GridLayout, _ offsetB: Double, progress t: Double) {
        for (k, header) in nodes.enumerated() {
            let from = a.headerFrame(ofSection: k).minY - offsetA, to = b.headerFrame(ofSection: k).minY - offsetB
            header.frame.origin.y = from + (to - from) * t
        }
        pinned = nil
    }

    /// Where the held header ends, in content coordinates (0 when there are none).
    var pinnedBottom: Double { pinned.map { nodes[$0].frame.maxY } ?? 0 }

    /// Whether a header covers content point `p`.
    func covers(_ p: Point) -> Bool { section(covering: p) != nil }

    /// The section whose header covers content point `p` (the one held under the bar first), if any.
    func section(covering p: Point) -> Int? {
        guard !nodes.isEmpty else { return nil }
        return [pinned, layout.section(atContentY: p.y)].compactMap { $0 }.first { nodes[$0].frame.contains(p) }
    }
}
