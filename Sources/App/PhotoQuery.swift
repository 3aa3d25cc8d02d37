import Foundation
import Library
import SystemPackage

/// What the Search tab's field asks for, as it is typed: every word must match the photo somewhere — its
/// file name or a folder it is in (below the opened one), its camera ("canon", "r6"), the year it was taken
/// ("2023"), its month by name ("march", "mar", or the locale's "März"), or "today" / "yesterday" (also in
/// the locale's words). Case and accents are ignored: "marz" finds März.
public struct PhotoQuery: Equatable {
    public let text: String
    private let words: [String]
    /// Today: days since 1970-01-01 on the wall clock.
    private let today: Int64
    /// Month names and their short forms, folded, by month (1…12): English's and the locale's.
    private let months: [(name: String, month: Int)]
    private let todayWords: Set<String>
    private let yesterdayWords: Set<String>

    public init(_ text: String, days: DayTitles = DayTitles(), locale: Locale = .environmentDates) {
        self.text = text
        words = text.split(whereSeparator: \.isWhitespace).map { PhotoQuery.fold(String($0)) }
        today = days.today
        var months: [(String, Int)] = []
        for formatterLocale in [Locale(identifier: "en_US_POSIX"), locale] {
            let formatter = DateFormatter()
            formatter.locale = formatterLocale
            for symbols in [formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols] {
                for (i, name) in (symbols ?? []).enumerated() { months.append((PhotoQuery.fold(name.trimmingCharacters(in: .punctuationCharacters)), i + 1)) }
            }
        }
        self.months = months
        todayWords = ["today", PhotoQuery.fold(days.title(ofDay: days.today))]
        yesterdayWords = ["yesterday", PhotoQuery.fold(days.title(ofDay: days.today - 1))]
    }

    public static func == (a: PhotoQuery, b: PhotoQuery) -> Bool { a.text == b.text }

    /// Nothing typed: every photo.
    public var isEmpty: Bool { words.isEmpty }

    /// Whether `photo` (whose folders below the opened one are `folders`) is one the words ask for.
    public func matches(_ photo: Photo, folders: [String]) -> Bool {
        let names = ([photo.name] + folders).map(PhotoQuery.fold)
        let camera = photo.camera.map(PhotoQuery.fold)
        let day = photo.date?.day
        let calendar = day.map(PhotoDate.calendarDate(ofDay:))
        return words.allSatisfy { word in
            if names.contains(where: { $0.contains(word) }) || camera?.contains(word) == true { return true }
            guard let day, let calendar else { return false }
            if word.count == 4, let year = Int(word), year == calendar.year { return true }
            if word.count >= 3, months.contains(where: { $0.month == calendar.month && $0.name.hasPrefix(word) }) { return true }
            if todayWords.contains(word) { return day == today }
            if yesterdayWords.contains(word) { return day == today - 1 }
            return false
        }
    }

    /// Lower case, without accents: what is compared.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
