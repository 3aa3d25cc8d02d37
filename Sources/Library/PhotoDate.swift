import Foundation
import Imaging

/// Where a photo belongs in the timeline: when it was taken by its camera's clock, else when its file
/// was last written.
public struct PhotoDate: Sendable, Equatable {
    /// Seconds since 1970-01-01 UTC: the timeline's order.
    public let instant: Double
    /// The clock on the wall where and when it was taken, as seconds from 1970 on that clock: the day it
    /// is listed under (a photo taken at 23:30 in Tokyo is that day's, wherever it is viewed).
    public let wallClock: Int64
    /// Whether the camera said (EXIF), or it is the file's modification time.
    public let isCaptureTime: Bool

    public init(instant: Double, wallClock: Int64, isCaptureTime: Bool) {
        self.instant = instant
        self.wallClock = wallClock
        self.isCaptureTime = isCaptureTime
    }

    /// The day it is listed under: days since 1970-01-01 on the wall clock where it was taken.
    public var day: Int64 { wallClock >= 0 ? wallClock / 86_400 : (wallClock + 1) / 86_400 - 1 }

    /// The calendar date of `day` (days since 1970-01-01).
    public static func calendarDate(ofDay day: Int64) -> (year: Int, month: Int, day: Int) { CaptureDate.civil(fromDays: day) }

    /// Days since 1970 of a calendar date; nil for one there is none of (a 13th month, 30 February).
    public static func day(year: Int, month: Int, day: Int) -> Int64? {
        guard (1...12).contains(month), (1...CaptureDate.days(inMonth: month, of: year)).contains(day) else { return nil }
        return CaptureDate.daysFromEpoch(year: year, month: month, day: day)
    }

    /// A camera's date; without its offset from UTC, the clock is taken to be in `zone` (nil: this machine's).
    public init(_ capture: CaptureDate, zone: TimeZone? = nil) {
        let offset = capture.utcOffset ?? LocalZone.secondsFromGMT(at: Double(capture.wallClock), in: zone)
        self.init(instant: Double(capture.wallClock - Int64(offset)), wallClock: capture.wallClock, isCaptureTime: true)
    }

    /// A file's modification time (seconds since 1970 UTC), on `zone`'s clock (nil: this machine's).
    public init(modified: Double, zone: TimeZone? = nil) {
        let offset = LocalZone.secondsFromGMT(at: modified, in: zone)
        self.init(instant: modified, wallClock: Int64(modified.rounded(.down)) + Int64(offset), isCaptureTime: false)
    }
}
