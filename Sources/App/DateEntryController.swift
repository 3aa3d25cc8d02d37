import Foundation
import Geometry
import Grid
import Input
import Library
import SceneGraph

/// `Ctrl+G` on a timeline's grid: a card under the title bar takes a date as it is typed ("March 2019",
/// "2019-03-14"; `DateEntry`); Return glides the grid to that day's, month's or year's first photo (`AppCommand.goToDay`),
/// Escape closes it. Words it cannot read as a date are said on the card, which stays. While it shows, keys are its own.
final class DateEntryController {
    private var card: (root: Node, text: Node, hint: Node)?
    private var typed = ""
    private let monthNames: [(name: String, month: Int)]
    private let monthFirst: Bool
    static let hint = "A day, a month or a year: “2019-03-14”, “March 2019”"

    init(locale: Locale = .environmentDates) {
        monthNames = PhotoQuery.monthNames(locale: locale)
        // The locale's numeric order: "M/d/y" in the United States, "d.M.y" or "d/M/y" in most of the world.
        let order = DateFormatter.dateFormat(fromTemplate: "yMd", options: 0, locale: locale) ?? "d/M/y"
        monthFirst = (order.firstIndex(of: "M") ?? order.endIndex) < (order.firstIndex(of: "d") ?? order.endIndex)
    }

    /// Shows the card, empty, over `root` (a window of `size`).
    func open(in size: Size, over root: Node) {
        close()
        let card = (root: Node(name: "dateEntry"), text: Node(name: "dateEntry.text"), hint: Node(name: "dateEntry.hint"))
        card.root.backgroundColor = Color(white: 0.1, alpha: 0.92)
        card.root.cornerRadius = 12
        [card.text, card.hint].forEach(card.root.addChild)
        root.addChild(card.root)
        self.card = card
        typed = ""
        show(hint: Self.hint)
        layOut(in: size)
    }

    func close() {
        card?.root.removeFromParent()
        card = nil
    }

    /// Across the top of a window of `size`, under its title bar.
    func layOut(in size: Size) {
        guard let card else { return }
        let width = min(420, size.width - 16)
        card.root.frame = Rect(x: (size.width - width) / 2, y: 64, width: width, height: 64)
        card.text.frame = Rect(x: 16, y: 8, width: width - 32, height: 28)
        card.hint.frame = Rect(x: 16, y: 36, width: width - 32, height: 20)
    }

    /// While it shows: Return goes to the date typed, Escape closes, BackSpace deletes, a character is typed, and
    /// every other key is spent; pointer input passes.
    func handle(_ event: InputEvent) -> Handled {
        guard card != nil, case .key(let name, _) = event else { return .passed }
        switch name {
        case "Escape":
            close()
        case "Return", "KP_Enter":
            guard let day = DateEntry.firstDay(of: typed, monthNames: monthNames, monthFirst: monthFirst) else {
                show(hint: typed.isEmpty ? Self.hint : "“\(typed)” is no date this reads: “2019-03-14”, “March 2019”")
                return .taken(nil)
            }
            close()
            return .taken(.goToDay(day))
        case "BackSpace":
            typed = String(typed.dropLast())
        default:
            if let character = SearchKeys.character(forKey: name) ?? (name == "slash" ? "/" : nil) { typed.append(character) }
        }
        show(hint: nil)
        return .taken(nil)
    }

    /// Glides `grid` to the first of `photos` (a timeline, oldest first) on or after `day`, its day's header at the top
    /// as far as the grid scrolls (the newest photo when none is).
    static func glide(_ grid: GridScreen, toDay day: Int64, in photos: [Photo]) {
        guard !photos.isEmpty else { return }
        let index = photos.firstIndex { ($0.date?.day ?? .min) >= day } ?? photos.count - 1
        let layout = grid.layout
        let top = layout.sectionCount > 0 ? layout.headerFrame(ofSection: layout.section(of: index)).minY : layout.cellFrame(at: index).minY
        let range = grid.scrolling.range
        grid.scrolling.scrollSmoothly(by: min(max(top - layout.topInset, range.lowerBound), range.upperBound) - grid.scrolling.offset)
    }

    /// The words typed after "Go to", with the caret; and `hint` under them (nil: as it was).
    private func show(hint: String?) {
        guard let card else { return }
        card.text.text = TextContents("Go to " + typed + "|", fontSize: 17, weight: .bold, color: .white, alignment: .leading)
        if let hint { card.hint.text = TextContents(hint, fontSize: 12, color: Color(white: 0.75), alignment: .leading) }
    }
}
