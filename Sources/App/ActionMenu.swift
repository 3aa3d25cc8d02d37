import Geometry
import Library
import SceneGraph

/// The open photo's menu (a right click, the bar's `…` button, or `o`): the desktop's applications for
/// its type ("Open with Loupe"), then "Show in Folder". Arrows move the choice, Return or a click takes
/// it, Escape or a click elsewhere closes it.
final class ActionMenu {
    enum Action: Equatable {
        case open(DesktopApplications.Entry)
        /// A Live Photo's movie (the `.MOV` beside its still), in an application for movies.
        case openMovie(DesktopApplications.Entry)
        case showInFolder
    }

    /// Geometry, points.
    static let rowHeight = 40.0
    static let width = 280.0
    static let inset = 8.0
    static let highlight = Color(hex: 0x007AFF)

    let root = Node(name: "menu")
    let actions: [Action]
    /// The row the keys move (nil until an arrow or the pointer picks one).
    private(set) var chosen: Int?

    /// A menu of `actions`, its corner at `point` (kept inside a window of `size`).
    init(actions: [Action], at point: Point, in size: Size) {
        self.actions = actions
        root.backgroundColor = Color(white: 0.98, alpha: 0.97)
        root.cornerRadius = 12
        root.clipsToBounds = true
        let height = Double(actions.count) * ActionMenu.rowHeight + 2 * ActionMenu.inset
        let width = min(ActionMenu.width, size.width - 16)
        root.frame = Rect(x: min(max(8, point.x), size.width - width - 8), y: min(max(8, point.y), max(8, size.height - height - 8)),
                          width: width, height: height)
        for (i, action) in actions.enumerated() {
            let row = Node(name: "menu.item.\(i)", frame: Rect(x: 0, y: ActionMenu.inset + Double(i) * ActionMenu.rowHeight,
                                                             width: width, height: ActionMenu.rowHeight))
            let title = switch action {
            case .open(let entry): "Open with \(entry.name)"
            case .openMovie(let entry): "Open Live movie with \(entry.name)"
            case .showInFolder: "Show in Folder"
            }
            let label = Node(name: "menu.item.\(i).title", frame: Rect(x: 16, y: 0, width: width - 32, height: ActionMenu.rowHeight))
            label.text = TextContents(title, fontSize: 15, color: .black, alignment: .leading)
            row.addChild(label)
            root.addChild(row)
        }
    }

    func contains(_ point: Point) -> Bool { root.convert(root.bounds, to: nil).contains(point) }

    /// The row under `point`, if any.
    func row(at point: Point) -> Int? {
        guard contains(point) else { return nil }
        let y = root.convert(point, from: nil).y - ActionMenu.inset
        let i = Int((y / ActionMenu.rowHeight).rounded(.down))
        return actions.indices.contains(i) ? i : nil
    }

    /// Row `i` is the chosen one (nil: none), shown filled.
    func choose(_ i: Int?) {
        chosen = i
        for (n, row) in root.children.enumerated() {
            row.backgroundColor = n == i ? ActionMenu.highlight : nil
            row.children.first?.text?.color = n == i ? .white : .black
        }
    }

    /// Up or Down: the row before or after (from none: the first or the last), wrapping.
    func move(by step: Int) {
        let count = actions.count
        choose(chosen.map { ($0 + step + count) % count } ?? (step > 0 ? 0 : count - 1))
    }
}
