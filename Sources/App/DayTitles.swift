import Foundation
import Grid
import Library

/// What a timeline's day headers say, as iOS's Photos says it: "Today", "Yesterday", the weekday
/// within the last week, else the date (the year left out in this year), all in the locale's words.
public struct DayTitles {
    /// Today: days since 1970-01-01 on this machine's wall clock.
    let today: Int64
    /// Made at the first title asked for: a launch with no timeline does not load ICU's date data (4 MiB).
    private let words: Words

    /// `zone`: whose today it is (nil: this machine's); `locale`: the words and order of the dates (nil: the
    /// environment's `LC_ALL`, `LC_TIME` or `LANG`, which Foundation does not read on Linux).
    public init(now: Date = Date(), zone: TimeZone? = nil, locale: Locale? = nil) {
        let wallClock = Int64(now.timeIntervalSince1970.rounded(.down)) + Int64(LocalZone.secondsFromGMT(at: now.timeIntervalSince1970, in: zone))
        today = PhotoDate(instant: 0, wallClock: wallClock, isCaptureTime: false).day
        words = Words(locale: locale)
    }

    /// The locale's formatters and words, made once, when first needed (the locale too: making one loads ICU).
    private final class Words {
        private let chosen: Locale?
        init(locale: Locale?) { chosen = locale }

        lazy var locale = chosen ?? .environmentDates
        lazy var weekday = formatter("EEEE")
        lazy var dayAndMonth = formatter("EEEEdMMMM")
        lazy var fullDate = formatter("EEEEdMMMMy")
        lazy var monthAndYear = formatter("MMMMy")
        lazy var month = formatter("MMMM")
        /// "Today" and "Yesterday" in the locale's words.
        lazy var today = heading(relative.format(Date()))
        lazy var yesterday = heading(relative.format(Date().addingTimeInterval(-86_400)))

        /// The locale's own words for the two days before the dates begin ("heute", "gestern"); Foundation
        /// has them only relative to the real clock, which is enough for a word.
        private var relative: Date.RelativeFormatStyle {
            var style = Date.RelativeFormatStyle(presentation: .named, unitsStyle: .wide, locale: locale)
            style.allowedFields = [.day]
            return style
        }

        /// With a capital, as a heading.
        private func heading(_ word: String) -> String { word.prefix(1).uppercased(with: locale) + word.dropFirst() }

        private func formatter(_ template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            // A day is a wall-clock day: formatted as it is, with no zone moving it.
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
    }

    /// The header of `day` (days since 1970-01-01 on the wall clock).
    public func title(ofDay day: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        switch today - day {
        case 0: return words.today
        case 1: return words.yesterday
        case 2...6: return words.weekday.string(from: date)
        default:
            let sameYear = PhotoDate.calendarDate(ofDay: day).year == PhotoDate.calendarDate(ofDay: today).year
            return (sameYear ? words.dayAndMonth : words.fullDate).string(from: date)
        }
    }

    /// The name of `day`'s month alone ("March", "März"), as a card of the Months view says it.
    public func monthTitle(ofDay day: Int64) -> String { words.month.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)) }

    /// A timeline's days: each run of photos taken the same day (on the clock where they were taken)
    /// is a section. None unless every photo has a date.
    public func sections(of photos: [Photo]) -> [GridSection] {
        let days = photos.compactMap { $0.date?.day }
        guard !days.isEmpty, days.count == photos.count else { return [] }
        // A month's words once a month: a library of 25 years has some 9,000 days and 300 months.
        var months: [Int: String] = [:]
        return days.indices.filter { $0 == 0 || days[$0] != days[$0 - 1] }.map { start in
            let day = days[start], date = PhotoDate.calendarDate(ofDay: day)
            let key = date.year * 12 + date.month
            let month = months[key] ?? words.monthAndYear.string(from: Date(timeIntervalSince1970: Double(day) * 86_400))
            months[key] = month
            return GridSection(start: start, title: title(ofDay: day), month: month, year: date.year)
        }
    }
}

extension Locale {
    /// The locale the environment asks dates in (`LC_ALL`, else `LC_TIME`, else `LANG`: "de_DE.UTF-8"
    /// is German); Foundation's current locale otherwise, and for "C" and "POSIX".
    public static var environmentDates: Locale {
        let environment = ProcessInfo.processInfo.environment
        let setting = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let identifier = String(setting.prefix { $0 != "." && $0 != "@" })
        return ["", "C", "POSIX"].contains(identifier) ? .current : Locale(identifier: identifier)
    }
}
