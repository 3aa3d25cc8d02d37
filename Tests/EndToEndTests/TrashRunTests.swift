import Foundation
import Glibc
import Imaging
import SystemPackage
import Testing
import TestSupport

/// Delete in the viewer's own runs (headless, scripted): the photo goes to the trash of the run's data
/// home with its `.trashinfo`, the viewer shows the next one, and Ctrl+Z (while the card shows) puts the
/// file back as it was. Read-only (`--read-only`, or a folder the user may not write) it stays, one line said.
@Suite struct TrashRunTests {
    /// Three photos in a folder of their own, a data home, and a scratch folder for scripts and dumps.
    struct Fixture {
        let photos = try! TemporaryFolder(), data = try! TemporaryFolder(), scratch = try! TemporaryFolder()
        static let names = ["grace_hopper.jpg", "chelsea.png", "Kleiber_by_Lukas_Baubkus.jpg"]

        init() throws {
            for name in Self.names { try photos.copy(TestImages.bundledFolder + "/" + name, as: name) }
        }

        /// Runs the viewer headless on the photos with `script`; its status and what it said.
        /// `replacing`: another folder of photos in place of the fixture's.
        func run(_ script: String, extra: [String] = [], asAUser: Bool = false, replacing folder: String? = nil) throws -> (Int32?, String) {
            let file = try scratch.write("script.txt", Array(script.utf8))
            let viewer = try ViewerProcess(["--headless", "--no-thumbnail-cache", "--size", "400x300", "--script", file] + extra + [folder ?? photos.path],
                                           environment: ["XDG_DATA_HOME": data.path], asAUser: asAUser)
            let status = viewer.waitForExit(seconds: 60)
            return (status, viewer.standardError)
        }

        func dump(_ name: String) throws -> [DumpedNode] {
            try DumpedNode.all(in: scratch.path + "/" + name)
        }

        /// Every file of the folder, with its bytes.
        func contents(_ folder: String) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
            return files
        }

        var trash: String { data.path + "/Trash" }
    }

    func text(_ entries: [DumpedNode], _ name: String) -> String? { entries.first { $0.name == name }?.text }

    @Test func deleteThenUndoLeavesTheFolderAsItWas() throws {
        let f = try Fixture()
        let before = try f.contents(f.photos.path)
        let (status, said) = try f.run("""
            tap 60 110
            wait 900
            dump \(f.scratch.path)/open.json
            key Delete
            wait 500
            dump \(f.scratch.path)/deleted.json
            key ctrl+z
            wait 900
            dump \(f.scratch.path)/back.json
            """)
        #expect(status == 0, "\(said)")
        let open = try f.dump("open.json"), deleted = try f.dump("deleted.json"), back = try f.dump("back.json")
        let name = try #require(text(open, "viewer.title"))
        #expect(text(open, "titleBar.count") == "3 photos")
        // Gone from the library, the next photo shown, the card naming it.
        #expect(text(deleted, "titleBar.count") == "2 photos")
        #expect(text(deleted, "viewer.title") != name)
        #expect(text(deleted, "undo.label")?.contains(name.prefix(12)) == true, "\(text(deleted, "undo.label") ?? "no card")")
        // Back in its place, shown again, the card gone.
        #expect(text(back, "titleBar.count") == "3 photos")
        #expect(text(back, "viewer.title") == name)
        #expect(!back.contains { $0.name == "undo" })
        #expect(try f.contents(f.photos.path) == before)
        #expect(try f.contents(f.trash + "/files").isEmpty)
        #expect(try f.contents(f.trash + "/info").isEmpty)
        #expect(said.contains("moved to the trash") && said.contains("put back from the trash"), "\(said)")
    }

    /// A Live Photo goes to the trash whole, its movie with its still, and comes back whole, byte for byte.
    @Test(.enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
    func aLivePhotoIsTrashedAndPutBackWithItsMovie() throws {
        let f = try Fixture()
        let made = try TestClips.make([.upright], in: f.photos)
        try FileManager.default.moveItem(atPath: made[.upright]!, toPath: f.photos.path + "/chelsea.MOV")
        let before = try f.contents(f.photos.path)
        #expect(before.count == 4)
        let (status, said) = try f.run("""
            wait 900
            dump \(f.scratch.path)/grid.json
            tap 160 110
            wait 900
            dump \(f.scratch.path)/open.json
            key Delete
            wait 500
            dump \(f.scratch.path)/deleted.json
            key ctrl+z
            wait 900
            dump \(f.scratch.path)/back.json
            """)
        #expect(status == 0, "\(said)")
        #expect(text(try f.dump("grid.json"), "titleBar.count") == "3 photos", "the movie is its still's")
        #expect(text(try f.dump("open.json"), "viewer.title") == "chelsea.png")
        #expect(text(try f.dump("deleted.json"), "titleBar.count") == "2 photos")
        #expect(text(try f.dump("back.json"), "titleBar.count") == "3 photos")
        #expect(text(try f.dump("back.json"), "viewer.title") == "chelsea.png")
        #expect(try f.contents(f.photos.path) == before, "both back, byte for byte")
        #expect(try f.contents(f.trash + "/files").isEmpty && f.contents(f.trash + "/info").isEmpty)
        #expect(said.components(separatedBy: "moved to the trash").count == 2, "one line for the pair: \(said)")
        // Deleted and left there: both wait in the trash.
        let (again, words) = try f.run("wait 900\ntap 160 110\nwait 900\nkey Delete\nwait 500\n")
        #expect(again == 0, "\(words)")
        #expect(Set(try f.contents(f.trash + "/files").keys) == ["chelsea.png", "chelsea.MOV"])
        #expect(try f.contents(f.photos.path).keys.sorted() == ["Kleiber_by_Lukas_Baubkus.jpg", "grace_hopper.jpg"])
    }

    @Test func deletedWithoutUndoItWaitsInTheTrashWithItsInfo() throws {
        let f = try Fixture()
        let before = try f.contents(f.photos.path)
        // Shift+Delete does no more than Delete.
        let (status, said) = try f.run("""
            tap 60 110
            wait 900
            dump \(f.scratch.path)/open.json
            key shift+Delete
            wait 6000
            key ctrl+z
            wait 300
            dump \(f.scratch.path)/later.json
            """)
        #expect(status == 0, "\(said)")
        let name = try #require(text(try f.dump("open.json"), "viewer.title"))
        let later = try f.dump("later.json")
        // The card had gone: Ctrl+Z after it did nothing.
        #expect(!later.contains { $0.name == "undo" })
        #expect(text(later, "titleBar.count") == "2 photos")
        var left = before
        let photo = try #require(before[name])
        left[name] = nil
        #expect(try f.contents(f.photos.path) == left)
        #expect(try f.contents(f.trash + "/files") == [name: photo])
        let info = try String(contentsOfFile: f.trash + "/info/\(name).trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(f.photos.path)/\(name)\nDeletionDate="), "\(info)")
    }

    /// Pressed while the photo still flies in, Delete waits for the landing, as the arrows do.
    @Test func deletePressedDuringTheZoomInPlaysOnceItLands() throws {
        let f = try Fixture()
        let (status, said) = try f.run("tap 60 110\nwait 60\nkey Delete\nwait 1200\ndump \(f.scratch.path)/end.json\n")
        #expect(status == 0, "\(said)")
        #expect(text(try f.dump("end.json"), "titleBar.count") == "2 photos", "\(said)")
        #expect(try f.contents(f.trash + "/files").count == 1)
    }

    @Test func readOnlyTheViewerOffersNoTrashAndDeleteSaysSo() throws {
        let f = try Fixture()
        let before = try f.contents(f.photos.path)
        let (status, said) = try f.run("tap 60 110\nwait 900\nkey Delete\nwait 500\ndump \(f.scratch.path)/end.json\n", extra: ["--read-only"])
        #expect(status == 0, "\(said)")
        let lines = said.split(separator: "\n").filter { $0.contains("read-only") }
        #expect(lines.count == 1 && lines[0].contains("not moved to the trash"), "\(said)")
        let end = try f.dump("end.json")
        #expect(end.first { $0.name == "viewer.trash" }?.hidden == true)
        #expect(text(end, "titleBar.count") == "3 photos")
        #expect(try f.contents(f.photos.path) == before)
        #expect(!FileManager.default.fileExists(atPath: f.trash))
    }

    /// Run as a user (root without its power over files' permissions) on a folder no one may write.
    @Test func aFolderTheUserMayNotWriteKeepsThePhotoWithOneLine() throws {
        let f = try Fixture()
        let before = try f.contents(f.photos.path)
        #expect(chmod(f.photos.path, 0o555) == 0)
        defer { chmod(f.photos.path, 0o755) }
        let (status, said) = try f.run("tap 60 110\nwait 900\nkey Delete\nwait 500\ndump \(f.scratch.path)/end.json\n", asAUser: true)
        #expect(status == 0, "\(said)")
        let lines = said.split(separator: "\n").filter { $0.contains("trash") }
        #expect(lines.count == 1 && lines[0].contains("its folder is not writable"), "\(said)")
        let end = try f.dump("end.json")
        #expect(text(end, "titleBar.count") == "3 photos")
        #expect(!end.contains { $0.name == "undo" })
        #expect(try f.contents(f.photos.path) == before)
        #expect(try f.contents(f.trash + "/info").isEmpty)
    }

    /// A photo named in Latin-1 ("café.png", é the one byte E9, not UTF-8) beside another whose name holds U+FFFD,
    /// as the byte is shown: the first one is turned, its details read, trashed and put back, each by its own bytes,
    /// and its sibling is never touched.
    @Test func aLatin1NamedPhotoIsTurnedTrashedAndPutBackByItsOwnBytes() throws {
        let f = try Fixture(), odd = try TemporaryFolder()
        let latin1 = FilePath(bytes: Array((odd.path + "/caf").utf8) + [0xE9] + Array(".png".utf8))
        let sibling = FilePath(odd.path + "/caf\u{FFFD}.png")
        let chelsea = try Data(contentsOf: URL(fileURLWithPath: TestImages.bundledFolder + "/chelsea.png"))
        let coffee = try Data(contentsOf: URL(fileURLWithPath: TestImages.bundledFolder + "/coffee.png"))
        // The Latin-1 one a minute older, so the first cell of the day.
        for (file, bytes, age) in [(latin1, chelsea, 120), (sibling, coffee, 60)] {
            let fd = try FileDescriptor.open(file, .writeOnly, options: .create, permissions: [.ownerReadWrite, .groupRead, .otherRead])
            _ = try fd.closeAfter { try fd.writeAll(bytes) }
            let when = timespec(tv_sec: time(nil) - age, tv_nsec: 0)
            var times = [when, when]
            #expect(file.withPlatformString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
        }
        let (exit, said) = try f.run("""
            tap 60 110
            wait 900
            key ctrl+r
            wait 600
            key i
            wait 300
            dump \(f.scratch.path)/info.json
            key i
            key Delete
            wait 500
            key ctrl+z
            wait 900
            """, replacing: odd.path)
        #expect(exit == 0, "\(said)")
        #expect(!said.contains("cannot") && !said.contains("not turned"), "\(said)")
        #expect(said.contains("turned clockwise") && said.contains("put back from the trash"), "\(said)")
        // Turned by its orientation alone, and back in its place.
        #expect(PhotoFacts.read(path: latin1)?.orientation == .right)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sibling.string)) == coffee)
        #expect(try FileManager.default.contentsOfDirectory(atPath: odd.path).count == 2)
        #expect(try f.contents(f.trash + "/files").isEmpty && f.contents(f.trash + "/info").isEmpty)
        // The details read its own file's size (the sibling is 467 KB).
        var status = stat()
        #expect(latin1.withPlatformString { stat($0, &status) } == 0)
        let kilobytes = "\(Int((Double(status.st_size) / 1000).rounded())) KB"
        let info = try f.dump("info.json")
        #expect(info.contains { $0.text?.hasSuffix(" · " + kilobytes) == true }, "\(kilobytes): \(info.compactMap(\.text))")
    }
}
