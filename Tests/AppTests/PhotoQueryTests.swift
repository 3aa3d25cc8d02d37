import Foundation
import Library
import SystemPackage
import Testing
@testable import App

/// What the Search tab finds as words are typed, relative to a fixed today.
@Suite struct PhotoQueryTests {
    /// Thursday 26 November 2026, 10:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_687_200)
    let utc = TimeZone(secondsFromGMT: 0)!

    /// A photo taken `daysBack` days before today at noon, on `camera`.
    func photo(_ path: String, daysBack: Int64, camera: String? = nil) -> Photo {
        let noon = (1_795_687_200 / 86_400 - daysBack) * 86_400 + 43_200
        return Photo(file: FilePath(path), date: PhotoDate(instant: Double(noon), wallClock: noon, isCaptureTime: true), camera: camera)
    }

    func query(_ text: String, locale: String = "en_GB") -> PhotoQuery {
        PhotoQuery(text, days: DayTitles(now: now, zone: utc, locale: Locale(identifier: locale)), locale: Locale(identifier: locale))
    }

    let holiday = Photo(file: "/p/Holiday in Spain/IMG_1204.jpg", date: nil)

    @Test func wordsFindNamesAndFoldersWhateverTheirCase() {
        #expect(query("img_12").matches(holiday, folders: ["Holiday in Spain"]))
        #expect(query("spain").matches(holiday, folders: ["Holiday in Spain"]))
        #expect(query("holiday 1204").matches(holiday, folders: ["Holiday in Spain"]), "every word, anywhere")
        #expect(!query("holiday 1205").matches(holiday, folders: ["Holiday in Spain"]), "every word must match")
        #expect(query("").isEmpty && query("  ").isEmpty)
    }

    @Test func yearsMonthsAndRelativeDays() {
        let march = photo("/p/a.jpg", daysBack: 625)   // Tuesday 11 March 2025
        #expect(PhotoDate.calendarDate(ofDay: march.date!.day) == (2025, 3, 11))
        #expect(query("2025").matches(march, folders: []))
        #expect(!query("2024").matches(march, folders: []))
        #expect(query("March 2025").matches(march, folders: []))
        #expect(query("mar").matches(march, folders: []), "a month's first letters")
        #expect(!query("ma ").matches(march, folders: []), "a word ended too short for a month (and no name holds it)")
        #expect(!query("april").matches(march, folders: []))
        #expect(query("yesterday").matches(photo("/p/b.jpg", daysBack: 1), folders: []))
        #expect(!query("yesterday").matches(photo("/p/c.jpg", daysBack: 2), folders: []))
        #expect(query("today").matches(photo("/p/d.jpg", daysBack: 0), folders: []))
    }

    /// "2023 ma", halfway to "2023 mar": the word being typed is a month's start from its first letter, a year's from
    /// its first digit, so the grid narrows as it grows and never goes empty in the middle of a word.
    @Test func theWordBeingTypedMatchesAsItsStart() {
        let march = photo("/p/a.jpg", daysBack: 625), may = photo("/p/b.jpg", daysBack: 559), june = photo("/p/c.jpg", daysBack: 530)
        #expect([march, may, june].map { PhotoDate.calendarDate(ofDay: $0.date!.day).month } == [3, 5, 6])
        let found = { (text: String) in [march, may, june].filter { query(text).matches($0, folders: []) }.count }
        #expect(["2", "20", "202", "2025", "2025 m", "2025 ma", "2025 mar"].map(found) == [3, 3, 3, 3, 2, 2, 1])
        #expect(found("2025 ma ") == 0 && found("20 ") == 0, "a word ended is whole: too short for a month or a year")
        #expect(found("2024") == 0 && found("201") == 0)
    }

    @Test func theLocalesWordsToo() {
        let march = photo("/p/a.jpg", daysBack: 625)
        #expect(query("märz", locale: "de_DE").matches(march, folders: []))
        #expect(query("marz", locale: "de_DE").matches(march, folders: []), "accents ignored")
        #expect(query("gestern", locale: "de_DE").matches(photo("/p/b.jpg", daysBack: 1), folders: []))
        #expect(query("March", locale: "de_DE").matches(march, folders: []), "English's words always")
    }

    @Test func videoFindsEveryClipAndOnlyThem() {
        let clip = photo("/p/IMG_0042.MOV", daysBack: 625, camera: "Apple iPhone 13"), webm = photo("/p/party.webm", daysBack: 2)
        let still = photo("/p/IMG_0041.HEIC", daysBack: 625, camera: "Apple iPhone 13")
        for word in ["video", "Videos", "clips"] {
            #expect(query(word).matches(clip, folders: []) && query(word).matches(webm, folders: []), "\(word)")
            #expect(!query(word).matches(still, folders: []), "\(word)")
        }
        #expect(query("video march 2025 iphone").matches(clip, folders: []), "with its date and camera")
        #expect(!query("video 2024").matches(clip, folders: []))
    }

    @Test func theCameraModel() {
        let shot = photo("/p/a.jpg", daysBack: 3, camera: "Canon EOS R6")
        #expect(query("canon").matches(shot, folders: []))
        #expect(query("r6").matches(shot, folders: []))
        #expect(!query("nikon").matches(shot, folders: []))
    }
}
