import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// `--record` headless, as a user runs it: the file each extension names, the same bytes every run,
/// `--record-size`, `key r`, the README's demo, and recordings that cannot be written.
@Suite struct RecordingRunTests {
    let scratch = try! TemporaryFolder()

    /// Open a photo, page once, close it: about two seconds at 30 fps.
    static let script = """
        tap 150 100
        wait 700
        key Right
        wait 500
        key Escape
        wait 600
        """

    func record(_ name: String, _ extra: [String] = [], size: String = "320x400") throws -> (status: Int32, errors: String, path: String) {
        let scriptFile = try scratch.write("script.txt", Array(Self.script.utf8))
        let path = scratch.url.appendingPathComponent(name).path
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", size, "--fps", "30",
                                                      "--script", scriptFile, "--record", path] + extra, seconds: 120)
        return (status, errors, path)
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test(arguments: ["run.webp", "run.gif", "run.mp4"])
    func aHeadlessRecordingIsTheSameBytesEveryRun(name: String) throws {
        let first = try record(name)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors == "photozoom: saved recording \(first.path)\n")
        let a = try bytes(first.path)
        try FileManager.default.removeItem(atPath: first.path)
        let second = try record(name)
        #expect(second.status == 0, "\(second.errors)")
        #expect(try bytes(second.path) == a)

        let decoded: DecodedAnimation = switch name {
        case "run.webp": try AnimationReader.webp(a)
        case "run.gif": try AnimationReader.gif(a)
        default: try AnimationReader.video(path: second.path)
        }
        #expect((decoded.width, decoded.height) == (320, 400))
        // Two seconds of motion with still spells between: well over a dozen distinct frames.
        #expect(decoded.frames.count > 15, "\(decoded.frames.count) frames")
        // It starts on the settled grid and ends on it: the first and last frames are the same picture.
        let start = decoded.frames.first!.image, end = decoded.frames.last!.image
        #expect(PixelComparison(start, end, channelTolerance: 24).differing < start.pixelCount / 100)
    }

    @Test func aFolderGetsEveryFrameAsAPNG() throws {
        let run = try record("frames")
        #expect(run.status == 0, "\(run.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: run.path).sorted()
        // The script's 1.8 s and the settling after it: one file per 1/30 s frame.
        #expect(files.count > 54, "\(files.count) files")
        #expect(files.first == "frame-00001.png")
        #expect(files.allSatisfy { $0.hasPrefix("frame-") && $0.hasSuffix(".png") })
        let first = try ImageDecoder.decode(path: run.path + "/" + files[0]).image
        #expect((first.width, first.height) == (320, 400))
        // And it is exactly what a screenshot of the settled grid shows.
        let shot = scratch.url.appendingPathComponent("grid.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "320x400", "--screenshot", shot])
        #expect(status == 0, "\(errors)")
        #expect(PixelComparison(first, try ImageDecoder.decode(path: shot).image, channelTolerance: 0).differing == 0)
    }

    @Test func recordSizeScalesTheRecordingDown() throws {
        let run = try record("small.webp", ["--record-size", "160x1000"])
        #expect(run.status == 0, "\(run.errors)")
        let decoded = try AnimationReader.webp(try bytes(run.path))
        #expect((decoded.width, decoded.height) == (160, 200))
    }

    @Test func keyRStartsAndStopsARecordingNamedByTheTime() throws {
        let scriptFile = try scratch.write("keys.txt", Array("wait 200\nkey r\ntap 150 100\nwait 700\nkey r\nkey Escape\nwait 500\n".utf8))
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "320x400", "--script", scriptFile],
                                                     directory: scratch.url)
        #expect(status == 0, "\(errors)")
        let made = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("photozoom-") }
        #expect(made.count == 1, "\(made)")
        let name = try #require(made.first)
        #expect(name.range(of: #"^photozoom-\d{8}-\d{6}\.webp$"#, options: .regularExpression) != nil, "\(name)")
        #expect(errors.contains("saved recording \(scratch.path)/\(name)"), "\(errors)")
        let decoded = try AnimationReader.webp(try bytes(scratch.path + "/" + name))
        // From the press to the second press: the zoom into the viewer, 0.7 s.
        #expect(decoded.frames.count > 10)
        #expect(abs((decoded.end ?? 0) - 0.75) < 0.1, "\(decoded.end ?? 0) s")
    }

    /// The README's animation is what `make demo` makes from the script beside it (RECORD_SNAPSHOTS=1
    /// makes it again).
    @Test func theReadmeDemoIsTheDemoScriptsRecording() throws {
        let docs = TestImages.repository.appendingPathComponent("docs")
        let demo = docs.appendingPathComponent("demo.webp")
        let made = scratch.url.appendingPathComponent("demo.webp")
        let (status, errors) = try ViewerProcess.run(["--headless", "--no-thumbnail-cache", "--size", "390x844", "--fps", "30",
                                                      "--script", docs.appendingPathComponent("demo-script.txt").path,
                                                      "--record", made.path], seconds: 300)
        #expect(status == 0, "\(errors)")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            // Written over, not renamed: the scratch folder may be on another file system (a rename across
            // them fails, and `replaceItemAt` had removed the old file by then).
            try Data(contentsOf: made).write(to: demo)
            Issue.record("recorded docs/demo.webp; run again without RECORD_SNAPSHOTS")
            return
        }
        #expect(try Data(contentsOf: made) == Data(contentsOf: demo), "docs/demo.webp is out of date: make demo")
        let decoded = try AnimationReader.webp(try bytes(demo.path))
        #expect((decoded.width, decoded.height) == (390, 844))
        #expect((8...15).contains(decoded.end ?? 0), "\(decoded.end ?? 0) s")
    }

    @Test func aRecordingThatCannotBeWrittenSaysSoAndLeavesNothing() throws {
        try scratch.write("file.txt", Array("not a folder".utf8))
        try scratch.write("full/keep.txt", Array("mine".utf8))
        let before = try FileManager.default.subpathsOfDirectory(atPath: scratch.path).sorted()
        for (target, reason) in [("missing/run.webp", "no such folder"), ("file.txt/run.gif", "no such folder"),
                                 ("full", "the folder is not empty; nothing was written"),
                                 ("file.txt", "it is a file; frames go into a folder")] {
            let run = try record(target)
            #expect(run.status != 0)
            let lines = run.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(run.errors)")
            #expect(run.errors.hasPrefix("photozoom: error: cannot write the recording \(run.path): \(reason)"), "\(run.errors)")
        }
        // The run stopped before anything was drawn; nothing new, nothing changed.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: scratch.path).sorted() == (before + ["script.txt"]).sorted())
        #expect(try String(contentsOfFile: scratch.path + "/full/keep.txt", encoding: .utf8) == "mine")
    }

    /// A pipe nobody reads is found only when the file is complete: the run fails in one line and
    /// nothing is left behind.
    @Test func aRecordingThatFailsAtTheEndLeavesNoPartialFile() throws {
        let fifo = scratch.url.appendingPathComponent("pipe.webp").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try record("pipe.webp")
        #expect(run.status != 0)
        #expect(run.errors == "photozoom: error: cannot write the recording \(fifo): nothing is reading the pipe\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["pipe.webp", "script.txt"])
    }

    /// FFmpeg is opened only for an MP4: with libavcodec hidden (an empty file bound over it in a
    /// private mount namespace), an MP4 recording is refused in one line before the run, and the
    /// viewer still runs and records WebP.
    @Test func withoutFFmpegAnMP4IsRefusedInOneLineAndTheRestWorks() throws {
        let scriptFile = try scratch.write("script.txt", Array(Self.script.utf8))
        let empty = try scratch.write("empty.so", [])
        let viewer = ViewerProcess.executable.path
        let run = "\(viewer) --headless --no-thumbnail-cache --size 320x400 --fps 30 --script \(scriptFile) --record"
        let (status, output) = try DesktopTools.run("unshare", ["--mount", "sh", "-c", """
            library=$(ls /usr/lib/*/libavcodec.so.[0-9]* | head -n 1)
            mount --bind \(empty) "$library" || exit 1
            \(run) \(scratch.path)/run.mp4 2>&1; echo "status $?"
            \(run) \(scratch.path)/run.webp 2>&1; echo "status $?"
            """], seconds: 120)
        #expect(status == 0)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.hasPrefix("photozoom: error: cannot write the recording \(scratch.path)/run.mp4: MP4 needs FFmpeg's libraries") == true,
                "\(lines)")
        #expect(lines.first?.contains("libavcodec.so") == true, "the loader's words name the library: \(lines)")
        #expect(Array(lines.dropFirst()) == ["status 1", "photozoom: saved recording \(scratch.path)/run.webp", "status 0"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/run.mp4"))
        let webp = try AnimationReader.webp(bytes(scratch.path + "/run.webp"))
        #expect(webp.width == 320 && webp.frames.count > 10, "\(webp.width)x\(webp.height), \(webp.frames.count) frames")
    }
}
