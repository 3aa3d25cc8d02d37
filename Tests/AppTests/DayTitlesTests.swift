import Foundation
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// What the timeline's day headers say, relative to a fixed today, in a fixed locale.
@Suite struct DayTitlesTests {
    /// Thursday 26 November 2026, 10:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_687_200)
    let utc = TimeZone(secondsFromGMT: 0)!

    func day(_ daysBack: Int64) -> Int64 { 1_795_687_200 / 86_400 - daysBack }

    @Test func recentDaysByNameOlderOnesByDate() {
        let titles = DayTitles(now: now, zone: utc, locale: Locale(identifier: "en_GB"))
        #expect(titles.title(ofDay: day(0)) == "Today")
        #expect(titles.title(ofDay: day(1)) == "Yesterday")
        #expect(titles.title(ofDay: day(2)) == "Tuesday")
        #expect(titles.title(ofDay: day(6)) == "Friday")
        #expect(titles.title(ofDay: day(7)) == "Thursday 19 November", "a week back: the date, this year's without the year")
        #expect(titles.title(ofDay: day(400)) == "Wednesday, 22 October 2025")
        #expect(titles.title(ofDay: day(-3)) == "Sunday 29 November", "a camera clock set ahead: its date")
    }

    @Test func theLocaleGivesTheWordsAndTheOrder() {
        let german = DayTitles(now: now, zone: utc, locale: Locale(identifier: "de_DE"))
        #expect(german.title(ofDay: day(0)) == "Heute")
        #expect(german.title(ofDay: day(1)) == "Gestern")
        #expect(german.title(ofDay: day(2)) == "Dienstag")
        #expect(german.title(ofDay: day(400)) == "Mittwoch, 22. Oktober 2025")
        let american = DayTitles(now: now, zone: utc, locale: Locale(identifier: "en_US"))
        #expect(american.title(ofDay: day(7)) == "Thursday, November 19")
    }

    /// Today is the day on this machine's clock: at 10:00 UTC on the 26th it is still the 25th in Pago Pago.
    @Test func todayIsTheLocalDay() {
        let pagoPago = DayTitles(now: now, zone: TimeZone(secondsFromGMT: -11 * 3600)!, locale: Locale(identifier: "en_GB"))
        #expect(pagoPago.title(ofDay: day(1)) == "Today")
        #expect(pagoPago.title(ofDay: day(0)) == "Thursday 26 November")
    }

    /// Each run of photos of one day (by the wall clock where each was taken) is a section, with its month and year
    /// for the date scrubber; photos without dates have none.
    @Test func aTimelinesDaysAreItsSections() {
        func photo(_ wallClock: Int64) -> Photo {
            Photo(file: FilePath("/p.jpg"), date: PhotoDate(instant: Double(wallClock), wallClock: wallClock, isCaptureTime: true))
        }
        let titles = DayTitles(now: now, zone: utc, locale: Locale(identifier: "en_GB"))
        let today = day(0) * 86_400
        let photos = [photo(today - 86_400 * 2 + 60), photo(today - 60), photo(today - 30), photo(today + 3600), photo(today + 7200)]
        #expect(titles.sections(of: photos) == [.init(start: 0, title: "Tuesday", month: "November 2026", year: 2026),
                                                .init(start: 1, title: "Yesterday", month: "November 2026", year: 2026),
                                                .init(start: 3, title: "Today", month: "November 2026", year: 2026)])
        let german = DayTitles(now: now, zone: utc, locale: Locale(identifier: "de_DE"))
        #expect(german.sections(of: [photo(Int64(1_552_564_800))]).map(\.month) == ["März 2019"], "the locale's words")
        #expect(titles.sections(of: photos + [Photo(file: FilePath("/undated.jpg"))]).isEmpty)
    }
}
