import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// A tree of real photos, as a camera and a phone leave it, opened in a real window: its days in
/// order under their headers, named by the wall clock where each photo was taken, the header of the
/// day under the title bar held there, and the window showing what a headless run shows.
@Suite(.serialized) struct TimelineWindowTests {
    struct Entry: Decodable {
        let name: String
        let frame: [Double]
        let photo: String?
        let text: String?
        let hidden: Bool
        let children: [Entry]
        var all: [Entry] { [self] + children.flatMap(\.all) }
    }

    /// The tree, its dates (with offsets from three zones, in a JPEG and a PNG), an undated screenshot whose
    /// file time says 3 March 2024, and a hidden folder.
    func makeTree(in tree: TemporaryFolder, argfile: String) throws {
        let bundled = TestImages.bundledFolder
        let dated: [(String, String, String)] = [
            ("2023/Trip/tokyo.jpg", "grace_hopper.jpg", "2023:11:14 23:30:00 +09:00"),
            ("2023/Trip/new-york.jpg", "Wine_by_Jakkub_Mede.jpg", "2023:11:14 20:00:00 -05:00"),
            ("Camera/IMG_0001.jpg", "Dragonfly_by_Bolly.jpg", "2024:03:02 10:00:00 +01:00"),
            ("Camera/IMG_0002.png", "coffee.png", "2024:03:02 11:00:00 +01:00"),
            ("Camera/IMG_0003.jpg", "sunset_by_Aitzol_Berasategi.jpg", "2024:03:02 12:00:00 +01:00"),
        ] + (4...12).map { ("Camera/IMG_00\(String(format: "%02d", $0)).jpg", "life_by_Aitzol_Berasategi.jpg",
                             String(format: "2024:03:02 13:%02d:00 +01:00", $0)) }
        var dating: [String] = []
        for (name, source, date) in dated {
            let copy = try tree.copy(bundled + "/" + source, as: name)
            let parts = date.split(separator: " ")
            dating += ["-DateTimeOriginal=\(parts[0]) \(parts[1])", "-OffsetTimeOriginal=\(parts[2])", copy, "-execute"]
        }
        try dating.joined(separator: "\n").write(toFile: argfile, atomically: true, encoding: .utf8)
        #expect(try DesktopTools.run("exiftool", ["-@", argfile, "-common_args", "-q", "-overwrite_original"]).status == 0)
        let screenshot = try tree.copy(bundled + "/chelsea.png", as: "Screens/shot.png")
        var march3 = [timespec(tv_sec: 1_709_467_200, tv_nsec: 0), timespec(tv_sec: 1_709_467_200, tv_nsec: 0)]   // 12:00 UTC
        #expect(utimensat(AT_FDCWD, screenshot, &march3, 0) == 0)
        _ = try tree.copy(bundled + "/astronaut.png", as: ".hidden/secret.png")
    }

    /// Plays `script` over `tree` at 400x500, headless or in the window (`run`): the final screen.
    func play(_ script: URL, _ run: String, tree: TemporaryFolder, in session: WindowSession, environment: [String: String],
              sourceLocation: SourceLocation = #_sourceLocation) throws -> PixelImage {
        let shot = session.scratch.appendingPathComponent("\(run).png").path
        let arguments = ["--size", "400x500", "--script", script.path, "--screenshot", shot, tree.path]
        if run == "headless" {
            let (status, errors) = try ViewerProcess.run(["--headless"] + arguments, environment: environment)
            #expect(status == 0, "\(errors)", sourceLocation: sourceLocation)
        } else {
            let (viewer, _) = try session.launch(arguments, environment: environment)
            #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)", sourceLocation: sourceLocation)
        }
        return try ImageDecoder.decode(path: shot).image
    }

    /// The tree played headless and then in a real window (`run`), each by `body` with a scratch folder and `play`
    /// (a script to the final screen): the window must show what the headless run shows.
    func inBothRuns(_ body: (_ run: String, _ scratch: URL, _ play: (URL) throws -> PixelImage) throws -> Void) throws {
        let session = try WindowSession()
        let tree = try TemporaryFolder()
        try makeTree(in: tree, argfile: session.scratch.appendingPathComponent("dates.args").path)
        let environment = ["TZ": "UTC", "LANG": "en_GB.UTF-8"]
        var finals: [PixelImage] = []
        for run in ["headless", "window"] {
            try body(run, session.scratch) { script in
                let final = try play(script, run, tree: tree, in: session, environment: environment)
                finals.append(final)
                return final
            }
        }
        #expect(PixelComparison(finals[0], finals[1], channelTolerance: 1).differing == 0, "the window shows the headless frame")
    }

    /// A photo without a date of its own is listed under the day its file was written on this machine's clock (`TZ`,
    /// else `/etc/localtime`, as `date` shows it): 03:00 UTC on 3 March 2024 is the evening before in New York.
    @Test func anUndatedPhotoIsListedOnTheDayOfThisMachinesClock() throws {
        let folder = try TemporaryFolder()
        let photo = try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "shot.png")
        var written = [timespec(tv_sec: 1_709_434_800, tv_nsec: 0), timespec(tv_sec: 1_709_434_800, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, photo, &written, 0) == 0)
        let scratch = try TemporaryFolder()
        let dump = scratch.path + "/dump.json", script = scratch.path + "/dump.txt"
        try "wait 100\ndump \(dump)\n".write(toFile: script, atomically: true, encoding: .utf8)
        for (zone, day) in [("America/New_York", "Saturday, 2 March 2024"), ("Asia/Tokyo", "Sunday, 3 March 2024"),
                            ("UTC", "Sunday, 3 March 2024")] {
            let (status, errors) = try ViewerProcess.run(["--headless", "--size", "400x500", "--script", script, folder.path],
                                                         environment: ["TZ": zone, "LANG": "en_GB.UTF-8"])
            #expect(status == 0, "\(errors)")
            let shown = try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: dump))).all
            let titles = shown.filter { $0.name.hasSuffix(".title") && $0.name.hasPrefix("header.") }.map(\.text)
            #expect(titles == [day], "TZ=\(zone)")
        }
    }

    @Test func aTreeOpensInDaysWithTheHeaderOfTheDayUnderTheBarPinned() throws {
        // Opened at the newest; dragged down 88 px (back through older photos; 48 of them the room kept for the view
        // picker over the tab bar): the March day's rows still pass under the bar.
        try inBothRuns { run, scratch, play in
            let script = scratch.appendingPathComponent("\(run).txt")
            let dump = scratch.appendingPathComponent("\(run)-opened.json").path
            let scrolled = scratch.appendingPathComponent("\(run)-scrolled.json").path
            try "wait 300\ndump \(dump)\ndown 200 150\nmove 200 238 300\nwait 300\nup\nwait 500\ndump \(scrolled)\n"
                .write(to: script, atomically: true, encoding: .utf8)
            _ = try play(script)

            let opened = try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: dump))).all
            let titles = opened.filter { $0.name.hasSuffix(".title") && $0.name.hasPrefix("header.") }.map(\.text)
            #expect(titles == ["Tuesday, 14 November 2023", "Saturday, 2 March 2024", "Sunday, 3 March 2024"], "\(run)")
            let photos = opened.filter { $0.name.hasPrefix("cell.") }.compactMap(\.photo)
            #expect(photos.prefix(3) == ["tokyo.jpg", "new-york.jpg", "IMG_0001.jpg"], "taken first is first, by the instant: \(run)")
            #expect(photos.last == "shot.png" && photos.count == 15, "the hidden folder skipped: \(run)")

            // The March day's photos pass under the title bar: its header is held just below the bar.
            let after = try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: scrolled))).all
            let march = try #require(after.first { $0.name == "header.1" })
            #expect(march.frame[1] == 56, "\(run): \(march.frame)")
            let cellUnder = after.filter { $0.name.hasPrefix("cell.") && $0.frame[1] < 56 + 40 && $0.frame[1] + $0.frame[3] > 96 }
            #expect(!cellUnder.isEmpty, "\(run): a row passes under the header")
        }
    }

    /// The same tree's Albums tab, clicked in a real window: a cover per folder that holds photos (its newest
    /// photo, name and count), a cover clicked pushes its album in, a photo opens there and flies back, and
    /// Escape returns to the covers; then every tab answers a click. The window shows what a headless run shows.
    @Test func theTreesFoldersAreAlbumsThatOpenAndCloseInTheWindow() throws {
        try inBothRuns { run, scratch, play in
            let dumps = ["covers", "album", "back", "search", "library"].map { scratch.appendingPathComponent("\(run)-\($0).json").path }
            // The Albums tab; the third cover (Trip, first of the second row); its newest photo opened and closed;
            // Escape out of the album.
            let script = scratch.appendingPathComponent("\(run).txt")
            try """
                wait 300
                tap 200 480
                wait 600
                dump \(dumps[0])
                tap 100 360
                wait 800
                dump \(dumps[1])
                tap 170 150
                wait 900
                key Escape
                wait 900
                key Escape
                wait 900
                dump \(dumps[2])
                tap 333 480
                wait 300
                dump \(dumps[3])
                tap 66 480
                wait 600
                dump \(dumps[4])
                """.write(to: script, atomically: true, encoding: .utf8)
            _ = try play(script)

            func read(_ k: Int) throws -> [Entry] {
                try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: dumps[k]))).all
            }
            func text(_ entries: [Entry], _ name: String) -> String? { entries.first { $0.name == name }?.text }
            func cells(_ entries: [Entry]) -> [Entry] { entries.filter { $0.name.hasPrefix("cell.") && $0.name.split(separator: ".").count == 2 } }
            // Which photo a cell shows is named once its thumbnail is in: headless, at every frame; in the window
            // it may still be decoding (the final frames are compared below).
            let named = run == "headless"
            let covers = try read(0)
            #expect((0..<3).map { text(covers, "cell.\($0).caption.title") } == ["Camera", "Screens", "Trip"], "\(run)")
            #expect((0..<3).map { text(covers, "cell.\($0).caption.count") } == ["12 photos", "1 photo", "2 photos"], "\(run)")
            #expect(cells(covers).count == 3, "the hidden folder is no album: \(run)")
            #expect(!named || cells(covers).map(\.photo) == ["IMG_0012.jpg", "shot.png", "new-york.jpg"], "each cover its newest photo")
            let album = try read(1)
            #expect(text(album, "titleBar.title") == "Trip" && text(album, "titleBar.back") == "‹ Albums", "\(run)")
            #expect(cells(album).count == 2 && (!named || cells(album).map(\.photo) == ["tokyo.jpg", "new-york.jpg"]), "\(run)")
            let back = try read(2)
            #expect(text(back, "titleBar.title") == "Albums" && back.filter { $0.name.hasSuffix(".caption.title") }.count == 3, "\(run)")
            let search = try read(3)
            #expect(search.first { $0.name == "titleBar.search" }?.hidden == false && text(search, "titleBar.search.text") == "Name, date or camera",
                    "the Search tab's field: \(run)")
            let library = try read(4)
            #expect(text(library, "titleBar.title") == "Photos" && cells(library).count == 15,
                    "the Library tab: the whole timeline again: \(run)")
        }
    }

    /// The same tree's Years, Months and Days in a real window: `Ctrl+1` shows a card a year with its count, a click on
    /// 2024 zooms into its months (a back button naming Years), a click there into March's days, and `Escape` twice
    /// zooms back out to the years. The window shows what a headless run shows.
    @Test func theTreesYearsMonthsAndDaysOpenByClicksInTheWindow() throws {
        try inBothRuns { run, scratch, play in
            let script = scratch.appendingPathComponent("\(run)-views.txt")
            let dumps = (0..<3).map { scratch.appendingPathComponent("\(run)-views-\($0).json").path }
            // 400 wide: a card a row; opened at the newest, 2024's card is the lower one.
            try """
                wait 300
                key ctrl+1
                wait 900
                dump \(dumps[0])
                tap 200 260
                wait 900
                dump \(dumps[1])
                tap 200 260
                wait 900
                dump \(dumps[2])
                key Escape
                wait 900
                key Escape
                wait 900
                """.write(to: script, atomically: true, encoding: .utf8)
            _ = try play(script)
            func read(_ k: Int) throws -> [Entry] {
                try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: dumps[k]))).all
            }
            func text(_ entries: [Entry], _ name: String) -> String? { entries.first { $0.name == name }?.text }
            let years = try read(0)
            #expect(text(years, "titleBar.title") == "Years" && text(years, "titleBar.count") == "2 years", "\(run)")
            #expect([text(years, "card.0.caption.title"), text(years, "card.1.caption.title")] == ["2023", "2024"], "\(run)")
            #expect([text(years, "card.0.caption.count"), text(years, "card.1.caption.count")] == ["2 photos", "13 photos"], "\(run)")
            let months = try read(1)
            #expect(text(months, "titleBar.title") == "Months" && text(months, "titleBar.back") == "‹ Years", "\(run)")
            #expect(text(months, "card.1.caption.title") == "March" && text(months, "card.1.caption.count") == "13 photos", "\(run)")
            let days = try read(2)
            #expect(text(days, "titleBar.title") == "Days" && text(days, "titleBar.back") == "‹ Months", "\(run)")
            #expect(text(days, "card.1.caption.title") == "Saturday, 2 March 2024" && text(days, "card.1.caption.count") == "12 photos",
                    "\(run): \(days.filter { $0.name.hasSuffix("caption.title") }.compactMap(\.text))")
        }
    }
}
