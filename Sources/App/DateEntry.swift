import Foundation
import Library

/// What "Go to date" (`Ctrl+G`) reads: a day, a month or a year as people type them — "2019-03-14", "2019-03",
/// "2019", "14 March 2019", "March 14, 2019", "March 2019", "mar 2019", "14th March 2019", "14.3.2019", "3/14/2019".
/// Month names are English's and the locale's, three letters at least. Numbers alone are read year first (ISO 8601)
/// when the year leads, else in the locale's order: day first, or month first where the locale writes it so (the
/// United States); a "month" past 12 is taken as the day.
struct DateEntry {
    /// The first day the words name, in days since 1970 (a month's or a year's first day); nil when they name none.
    static func firstDay(of text: String, monthNames: [(name: String, month: Int)], monthFirst: Bool) -> Int64? {
        var numbers: [(value: Int, digits: Int)] = [], named: Int?
        for token in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init) {
            let digits = token.prefix { $0.isNumber }
            let rest = PhotoQuery.fold(String(token.dropFirst(digits.count)))
            if !digits.isEmpty, ["", "st", "nd", "rd", "th"].contains(rest), let value = Int(digits) {
                numbers.append((value, digits.count))
            } else if digits.isEmpty, rest.count >= 3, case let months = Set(monthNames.filter { $0.name.hasPrefix(rest) }.map(\.month)),
                      months.count == 1, named == nil {
                named = months.first
            } else {
                return nil
            }
        }
        guard let at = numbers.firstIndex(where: { $0.digits == 4 }), numbers.count <= 3 else { return nil }
        let year = numbers[at].value, others = numbers.enumerated().filter { $0.offset != at }.map(\.element.value)
        let (month, day): (Int?, Int?)
        if let named {
            guard others.count <= 1 else { return nil }
            (month, day) = (named, others.first)
        } else if others.count < 2 {
            (month, day) = (others.first, nil)
        } else {
            // Year first: ISO's year, month, day; else the locale's order, a "month" past 12 being the day.
            var (m, d) = at == 0 || monthFirst ? (others[0], others[1]) : (others[1], others[0])
            if m > 12, d <= 12 { (m, d) = (d, m) }
            (month, day) = (m, d)
        }
        return PhotoDate.day(year: year, month: month ?? 1, day: day ?? 1)
    }
}
