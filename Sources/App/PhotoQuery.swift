import Foundation
import Library
import SystemPackage

/// What the Search tab's field asks for, as it is typed: every word must match the photo somewhere — its
/// file name or a folder it is in (below the opened one), its camera ("canon", "r6"), the year it was taken
/// ("2023"), its month by name ("march", "mar", or the locale's "März"), "today" / "yesterday" (also in
/// the locale's words), or "video" (or "videos", "clip", "clips", "movie"): every clip. Case and accents are
/// ignored: "marz" finds März. The word still being typed (the last, no space after it) matches as the start of a
/// year ("20" finds 2000 to 2099) or of a month's name from its first letter ("ma": March and May), so that the grid
/// narrows as a word grows and never says "No Results" halfway through one.
public struct PhotoQuery: Equatable {
    public let text: String
    /// The words typed, each with what it can stand for.
    private let words: [Word]

    /// A typed word: folded bytes to find in names, and the dates it names.
    struct Word {
        let bytes: [UInt8]
        /// "2023": that year; "20", still being typed: the years it starts.
        let years: ClosedRange<Int>?
        /// "mar", "march", "märz": the months whose names start with it (three letters at least; any while typed).
        let months: Set<Int>
        /// Days since 1970 it names ("today", "yesterday", the locale's words).
        let day: Int64?
        /// "video", "clips": every clip.
        let meansClips: Bool
    }

    /// The words that find every clip.
    static let clipWords: Set<String> = ["video", "videos", "clip", "clips", "movie", "movies"]

    public init(_ text: String, days: DayTitles = DayTitles(), locale: Locale = .environmentDates) {
        self.text = text
        let monthNames = Self.monthNames(locale: locale)
        // English's words and the locale's (the same in English).
        let named = Dictionary([("today", days.today), (PhotoQuery.fold(days.title(ofDay: days.today)), days.today),
                                ("yesterday", days.today - 1), (PhotoQuery.fold(days.title(ofDay: days.today - 1)), days.today - 1)],
                               uniquingKeysWith: { first, _ in first })
        let typed = text.split(whereSeparator: \.isWhitespace)
        let typing = text.last.map { !$0.isWhitespace } ?? false
        words = typed.enumerated().map { i, typedWord in
            let word = PhotoQuery.fold(String(typedWord)), isTyping = typing && i == typed.count - 1
            return Word(bytes: Array(word.utf8), years: Self.years(word, typing: isTyping),
                        months: word.count >= (isTyping ? 1 : 3) ? Set(monthNames.filter { $0.name.hasPrefix(word) }.map(\.month)) : [],
                        day: named[word], meansClips: Self.clipWords.contains(word))
        }
    }

    public static func == (a: PhotoQuery, b: PhotoQuery) -> Bool { a.text == b.text }

    /// The years a word names: four digits, that one; fewer, while being typed, those it starts.
    static func years(_ word: String, typing: Bool) -> ClosedRange<Int>? {
        guard word.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(word), word.count == 4 || typing && word.count < 4 else {
            return nil
        }
        let span = [1000, 100, 10, 1][word.count - 1]
        return value * span...value * span + span - 1
    }

    /// The months' names, English's and `locale`'s, long and short, folded: each with its month (1…12).
    static func monthNames(locale: Locale) -> [(name: String, month: Int)] {
        var names: [(name: String, month: Int)] = []
        for formatterLocale in [Locale(identifier: "en_US_POSIX"), locale] {
            let formatter = DateFormatter()
            formatter.locale = formatterLocale
            for symbols in [formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols] {
                for (i, name) in symbols.enumerated() { names.append((fold(name.trimmingCharacters(in: .punctuationCharacters)), i + 1)) }
            }
        }
        return names
    }

    /// Nothing typed: every photo.
    public var isEmpty: Bool { words.isEmpty }

    /// What a photo is searched by, folded once (a library of 100,000 is searched again at every key).
    public struct Haystack {
        /// Its name, its folders' below the opened one and its camera, folded, a line each.
        let bytes: [UInt8]
        let day: Int64?
        let year: Int
        let month: Int
        /// Named as a clip (its content is read only when it is shown).
        let isClip: Bool

        /// `photo`, in the folders (below the opened one) `folders`.
        public init(_ photo: Photo, folders: [String]) {
            bytes = Array(([photo.name] + folders + [photo.camera ?? ""]).map(PhotoQuery.fold).joined(separator: "\n").utf8)
            day = photo.date?.day
            let calendar = day.map(PhotoDate.calendarDate(ofDay:))
            year = calendar?.year ?? 0
            month = calendar?.month ?? 0
            isClip = photo.isClip
        }
    }

    /// Whether `photo` (whose folders below the opened one are `folders`) is one the words ask for.
    public func matches(_ photo: Photo, folders: [String]) -> Bool { matches(Haystack(photo, folders: folders)) }

    /// Whether the photo `haystack` stands for is one the words ask for.
    public func matches(_ haystack: Haystack) -> Bool {
        words.allSatisfy { word in
            if word.meansClips && haystack.isClip { return true }
            if haystack.day != nil {
                if word.years?.contains(haystack.year) == true || word.months.contains(haystack.month) { return true }
                if let day = word.day { return day == haystack.day }
            }
            return PhotoQuery.contains(haystack.bytes, word.bytes)
        }
    }

    /// Whether `needle` is in `haystack`, byte for byte.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var i = 0
        let last = haystack.count - needle.count
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                while i <= last {
                    if h[i] == first, memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Lower case, without accents: what is compared (plain ASCII quickly; the rest through Foundation).
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
