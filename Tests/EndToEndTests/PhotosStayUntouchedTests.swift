import Foundation
import Glibc
import Testing
import TestSupport

/// The viewer never writes where the photos are unless asked to (Delete, Ctrl+R, a twist): every feature played
/// over a read-only folder, and those actions with `--read-only`, leaves its listing and every file's size and
/// modification time as they were. (Run as root, as the tests are here, the mode alone would not stop a
/// write: the listing is what is checked.)
@Suite struct PhotosStayUntouchedTests {
    /// Every entry's name, size and modification time (hidden ones too).
    func snapshot(_ folder: String) throws -> [String: [Int]] {
        var entries: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var info = stat()
            #expect(lstat(folder + "/" + name, &info) == 0)
            entries[name] = [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return entries
    }

    @Test func everyFeatureLeavesAReadOnlyFolderAsItWas() throws {
        let photos = try TemporaryFolder(), outputs = try TemporaryFolder()
        for name in ["grace_hopper.jpg", "chelsea.png", "Kleiber_by_Lukas_Baubkus.jpg"] {
            try photos.copy(TestImages.bundledFolder + "/" + name, as: name)
        }
        #expect(chmod(photos.path, 0o555) == 0)
        defer { chmod(photos.path, 0o755) }
        let before = try snapshot(photos.path)
        // Open, zoom, pan, page, pull to close, reopen, pinch to close, a screenshot with `s`, a dump.
        let script = """
            tap 60 110
            wait 900
            double-tap 200 200
            wait 600
            down 200 200
            move 150 150 200
            up
            wait 600
            key 0
            wait 400
            key Right
            wait 500
            down 200 200
            move 200 380 300
            up
            wait 800
            tap 60 110
            wait 900
            pinch 200 200 0.4 300
            wait 900
            key s
            dump \(outputs.path)/scene.json
            """
        let scriptFile = try outputs.write("script.txt", Array(script.utf8))
        // Read-only, the actions that write a photo's folder (Delete and its undo, Ctrl+R, a twist) do nothing to it.
        let deleting = try outputs.write("delete.txt", Array("""
            tap 60 110
            wait 900
            key Delete
            wait 400
            key ctrl+z
            wait 400
            key ctrl+r
            wait 700
            twist 200 150 80 300
            wait 900
            """.utf8))
        for (extra, scriptFile) in [(["--headless"], scriptFile), (["--headless", "--motion", "seeds", "--scale", "2"], scriptFile),
                                    (["--headless", "--read-only"], deleting)] {
            let viewer = try ViewerProcess(extra + ["--size", "400x300", "--script", scriptFile, "--trace", outputs.path + "/trace.jsonl",
                                                    "--screenshot", outputs.path + "/end.png", photos.path],
                                           directory: outputs.url)
            #expect(viewer.waitForExit(seconds: 60) == 0, "\(viewer.standardError)")
        }
        #expect(try snapshot(photos.path) == before)
        #expect(FileManager.default.fileExists(atPath: outputs.path + "/end.png"))
    }
}
