import Foundation
import Geometry
import Grid
import Input
import Library
import SceneGraph

/// `Ctrl+G` on a timeline's grid: a card under the title bar takes a date as it is typed ("March 2019",
/// "2019-03-14"; `DateEntry`), or a tap on a day of its calendar (`DateCalendar`, which follows the date typed; `Page_Up`
/// and `Page_Down` turn its month); Return glides the grid to that day's, month's or year's first photo
/// (`AppCommand.goToDay`), Escape closes it. Words it cannot read as a date are said on the card, which stays. While it
/// shows, keys are its own, and so are presses on it.
final class DateEntryController {
    private var card: (root: Node, text: Node, hint: Node, calendar: DateCalendar)?
    private var typed = ""
    private let monthNames: [(name: String, month: Int)]
    private let monthFirst: Bool
    private let locale: Locale
    static let hint = "A day, a month or a year: “2019-03-14”, “March 2019”"

    init(locale: Locale = .environmentDates) {
        self.locale = locale
        monthNames = PhotoQuery.monthNames(locale: locale)
        // The locale's numeric order: "M/d/y" in the United States, "d.M.y" or "d/M/y" in most of the world.
        let order = DateFormatter.dateFormat(fromTemplate: "yMd", options: 0, locale: locale) ?? "d/M/y"
        monthFirst = (order.firstIndex(of: "M") ?? order.endIndex) < (order.firstIndex(of: "d") ?? order.endIndex)
    }

    /// `Ctrl+G`, or a tap on a header: on a timeline's Library tab, the card, its calendar at the month of cell `cell`'s
    /// photo (the one at the top of the view, or the header's first).
    func open(over app: PhotoViewerApp, near cell: Int) {
        guard app.navigator.isGridActive, app.isTimeline, app.grid.bars.shownTab == .library, app.grid.photoCount > cell else { return }
        open(in: app.size, over: app.root, photos: app.library, near: app.views.photo(atCell: cell))
    }

    /// Shows the card, empty, over `root` (a window of `size`), its calendar at the month of photo `near` of `photos` (a
    /// timeline), their days marked.
    func open(in size: Size, over root: Node, photos: [Photo], near: Int) {
        close()
        let shown = photos.indices.contains(near) ? photos[near].date?.day : photos.last?.date?.day
        let calendar = DateCalendar(showing: shown ?? 0, daysWithPhotos: Set(photos.lazy.compactMap { $0.date?.day }), locale: locale)
        let card = (root: Node(name: "dateEntry"), text: Node(name: "dateEntry.text"), hint: Node(name: "dateEntry.hint"), calendar: calendar)
        card.root.backgroundColor = Color(white: 0.1, alpha: 0.92)
        card.root.cornerRadius = 12
        [card.text, card.hint, calendar.root].forEach(card.root.addChild)
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
        card.root.frame = Rect(x: (size.width - width) / 2, y: 64, width: width, height: 80 + DateCalendar.height)
        card.text.frame = Rect(x: 16, y: 8, width: width - 32, height: 28)
        card.hint.frame = Rect(x: 16, y: 36, width: width - 32, height: 20)
        card.calendar.layOut(width: width - 32)
        card.calendar.root.frame = Rect(x: 16, y: 64, width: width - 32, height: DateCalendar.height)
    }

    /// While it shows: Return goes to the date typed, Escape closes, BackSpace deletes, a character is typed, and
    /// every other key is spent; a press on the card is its own (`tapped`), and pointer input elsewhere passes.
    func handle(_ event: InputEvent) -> Handled {
        guard let card else { return .passed }
        switch event {
        case .pointerDown(let at, _, _), .touch(.begin, _, let at, _): return card.root.frame.contains(at) ? .taken(nil) : .passed
        case .pointerUp(let at, _, _), .touch(.end, _, let at, _): return card.root.frame.contains(at) ? tapped(at) : .passed
        case .key(let name, _): return key(name)
        default: return .passed
        }
    }

    /// A tap on the card at `point` (window coordinates): on a day, the grid goes to it; on ‹ or ›, the month turns.
    private func tapped(_ point: Point) -> Handled {
        guard let calendar = card?.calendar else { return .passed }
        switch calendar.hit(at: calendar.root.convert(point, from: nil)) {
        case .day(let day)?:
            close()
            return .taken(.goToDay(day))
        case .previous?: calendar.turn(by: -1)
        case .next?: calendar.turn(by: 1)
        case nil: break
        }
        return .taken(nil)
    }

    private func key(_ name: String) -> Handled {
        switch name {
        case "Escape":
            close()
        case "Prior", "Page_Up", "Next", "Page_Down":
            card?.calendar.turn(by: name == "Prior" || name == "Page_Up" ? -1 : 1)
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
        // The calendar follows the date as it is typed.
        if let day = DateEntry.firstDay(of: typed, monthNames: monthNames, monthFirst: monthFirst) {
            let date = PhotoDate.calendarDate(ofDay: day)
            card?.calendar.show(year: date.year, month: date.month)
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
