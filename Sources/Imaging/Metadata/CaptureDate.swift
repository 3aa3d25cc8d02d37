import SystemPackage

/// When a photo was taken, as its camera recorded it (EXIF DateTimeOriginal, else DateTimeDigitized):
/// the wall-clock time where it was taken and, when the camera wrote it (OffsetTimeOriginal, EXIF
/// 2.31), that clock's offset from UTC. Read from the file's first bytes, with no pixel decoded.
public struct CaptureDate: Sendable, Equatable {
    /// The wall-clock time as seconds from 1970-01-01 00:00:00 on that same clock (no zone applied).
    public let wallClock: Int64
    /// Seconds east of UTC; nil when the camera did not say.
    public let utcOffset: Int?

    public init(wallClock: Int64, utcOffset: Int?) {
        self.wallClock = wallClock
        self.utcOffset = utcOffset
    }

    /// EXIF's "YYYY:MM:DD HH:MM:SS" (a '-' between the date's parts is taken too) and "+HH:MM"; nil
    /// for a blank date ("    :  :     :  :  ", as a camera without a clock writes) or an impossible one.
    public init?(exif text: String, offset: String? = nil) {
        let digits = Array(text.utf8)
        guard digits.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for c in digits[from..<(from + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...9999).contains(year), (1...12).contains(month), (1...CaptureDate.days(inMonth: month, of: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        wallClock = CaptureDate.daysFromEpoch(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        utcOffset = offset.flatMap(CaptureDate.offset)
    }

    /// The date in the EXIF block of a file's first bytes (JPEG, PNG, WebP, HEIC, AVIF, TIFF and TIFF-based raw).
    public init?(head: ArraySlice<UInt8>) {
        guard let tiff = TIFFStructure(head: head) else { return nil }
        self.init(tiff)
    }

    init?(_ tiff: TIFFStructure) {
        guard let exif = tiff.exifDirectory() else { return nil }
        func text(_ tag: Int) -> String? { exif.first { $0.tag == tag }.flatMap(tiff.ascii) }
        // DateTimeOriginal, OffsetTimeOriginal; else DateTimeDigitized, OffsetTimeDigitized.
        guard let date = CaptureDate(exif: text(0x9003) ?? "", offset: text(0x9011))
                ?? CaptureDate(exif: text(0x9004) ?? "", offset: text(0x9012)) else { return nil }
        self = date
    }

    /// The date of the photo at `path`, from its first bytes (`PhotoFacts.read`).
    public static func read(path: FilePath) -> CaptureDate? { PhotoFacts.read(path: path)?.date }

    /// The calendar date and time of day of the wall clock.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = wallClock >= 0 ? wallClock / 86_400 : (wallClock - 86_399) / 86_400
        let seconds = Int(wallClock - days * 86_400)
        let (y, m, d) = CaptureDate.civil(fromDays: days)
        return (y, m, d, seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// "+HH:MM" or "-HH:MM" as seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        let c = Array(text.utf8)
        guard c.count >= 6, c[0] == UInt8(ascii: "+") || c[0] == UInt8(ascii: "-"), c[3] == UInt8(ascii: ":"),
              let h = Int(String(decoding: c[1..<3], as: UTF8.self)), let m = Int(String(decoding: c[4..<6], as: UTF8.self)),
              h <= 14, m < 60 else { return nil }
        return (c[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60)
    }

    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    public static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (`civil_from_days`).
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}
