import Foundation
import Geometry
import Library
import SceneGraph

/// Go to date's calendar, under the typed line: a month at a time in the locale's weeks, its name between ‹ and ›,
/// the days with photos in white and bold, the others grey. A tap on a day goes to it, on ‹ or › turns the month.
final class DateCalendar {
    let root = Node(name: "dateEntry.calendar")
    /// The month shown.
    private(set) var year: Int, month: Int
    private let daysWithPhotos: Set<Int64>
    private let monthTitle: DateFormatter
    /// The locale's weekday letters, Sunday first, and the weekday its weeks start on (0: Sunday, 1: Monday).
    private let weekdays: [String], firstWeekday: Int
    private var width = 0.0

    /// Its height, px: a title row, the weekdays' letters and six weeks.
    static let height = title + letters + 6 * week
    static let title = 32.0, letters = 20.0, week = 32.0

    /// What a tap on it does.
    enum Hit: Equatable {
        case previous, next
        /// A day, days since 1970.
        case day(Int64)
    }

    /// Showing the month of `day` (days since 1970); `daysWithPhotos` are marked.
    init(showing day: Int64, daysWithPhotos: Set<Int64>, locale: Locale) {
        (year, month) = { let date = PhotoDate.calendarDate(ofDay: $0); return (date.year, date.month) }(day)
        self.daysWithPhotos = daysWithPhotos
        monthTitle = DateFormatter()
        monthTitle.locale = locale
        monthTitle.timeZone = TimeZone(secondsFromGMT: 0)
        monthTitle.setLocalizedDateFormatFromTemplate("MMMMy")
        weekdays = monthTitle.veryShortStandaloneWeekdaySymbols ?? ["S", "M", "T", "W", "T", "F", "S"]
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        firstWeekday = calendar.firstWeekday - 1
    }

    /// The month shown moves by `months` (negative: back).
    func turn(by months: Int) {
        let index = year * 12 + month - 1 + months
        show(year: index / 12, month: index % 12 + 1)
    }

    /// Shows `month` of `year`.
    func show(year: Int, month: Int) {
        (self.year, self.month) = (year, month)
        layOut(width: width)
    }

    /// The first day of the month shown, and how many it has.
    private var days: (first: Int64, count: Int) {
        let first = PhotoDate.day(year: year, month: month, day: 1) ?? 0
        let next = PhotoDate.day(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1) ?? first + 30
        return (first, Int(next - first))
    }

    /// The column of `day` in its week (0 … 6, from the locale's first weekday); 1970-01-01 was a Thursday.
    private func column(of day: Int64) -> Int { (Int((day + 4) % 7) + 7 - firstWeekday) % 7 }

    /// `width` px wide, its nodes made anew for the month shown (where it lies is its card's to say).
    func layOut(width: Double) {
        self.width = width
        root.removeAllChildren()
        let cell = width / 7
        let title = Node(name: "dateEntry.calendar.title", frame: Rect(x: cell, y: 0, width: width - 2 * cell, height: Self.title))
        let day = Date(timeIntervalSince1970: Double(days.first) * 86_400)
        title.text = TextContents(monthTitle.string(from: day), fontSize: 15, weight: .bold, color: .white)
        for (name, glyph, x) in [("previous", "‹", 0.0), ("next", "›", width - cell)] {
            let arrow = Node(name: "dateEntry.calendar.\(name)", frame: Rect(x: x, y: 0, width: cell, height: Self.title))
            arrow.text = TextContents(glyph, fontSize: 22, color: .white)
            root.addChild(arrow)
        }
        root.addChild(title)
        for k in 0..<7 {
            let letter = Node(name: "dateEntry.calendar.weekday.\(k)", frame: Rect(x: Double(k) * cell, y: Self.title, width: cell, height: Self.letters))
            letter.text = TextContents(weekdays[(k + firstWeekday) % 7], fontSize: 11, color: Color(white: 0.6))
            root.addChild(letter)
        }
        for n in 0..<days.count {
            let day = days.first + Int64(n), box = frame(ofDay: n)
            let node = Node(name: "dateEntry.calendar.day.\(n + 1)", frame: box)
            let marked = daysWithPhotos.contains(day)
            node.text = TextContents("\(n + 1)", fontSize: 14, weight: marked ? .bold : .regular, color: marked ? .white : Color(white: 0.45))
            root.addChild(node)
        }
    }

    /// Day `n` (0: the first) of the month shown, in the calendar's coordinates.
    private func frame(ofDay n: Int) -> Rect {
        let cell = width / 7, slot = column(of: days.first) + n
        return Rect(x: Double(slot % 7) * cell, y: Self.title + Self.letters + Double(slot / 7) * Self.week, width: cell, height: Self.week)
    }

    /// What a tap at `point` (the calendar's coordinates) does, if anything.
    func hit(at point: Point) -> Hit? {
        let cell = width / 7
        if point.y >= 0, point.y < Self.title {
            return point.x < cell ? .previous : point.x >= width - cell ? .next : nil
        }
        return (0..<days.count).first { frame(ofDay: $0).contains(point) }.map { .day(days.first + Int64($0)) }
    }
}
