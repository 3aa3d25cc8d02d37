import Foundation
import Glibc
import Testing
import TestSupport

/// Files the user names on the command line, as outputs and inputs: whatever the path is, it is
/// never replaced by something else, and every failure is one line in plain words.
@Suite(.serialized) struct NamedFilesTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// A device number, as the `makedev` macro makes it (major 1: the kernel's memory devices).
    func device(_ major: UInt64, _ minor: UInt64) -> dev_t {
        dev_t((major & 0xfff) << 8 | (minor & 0xff) | ((minor & ~0xff) << 12) | ((major & ~0xfff) << 32))
    }

    /// Temporary files a failed write might have left in the folder.
    var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasPrefix(".") } ?? [] }

    /// A FIFO named as the screenshot: the PNG goes through it to the reader, and it stays a FIFO.
    @Test func aScreenshotIntoAFIFOGoesThroughIt() throws {
        let fifo = folder.path + "/shot.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Received()
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }   // waits for the writer
            received.set(handle.readDataToEndOfFile())
        }
        reader.start()
        usleep(100_000)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "120x90", "--screenshot", fifo])
        #expect(status == 0, "\(errors)")
        for _ in 0..<100 where received.data == nil { usleep(20_000) }
        #expect(received.data?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "the PNG came through")
        #expect(mode(fifo) == S_IFIFO, "still a FIFO")
    }

    /// A device made by the test (as /dev/null and /dev/full are made), named as the screenshot: refused with
    /// one line and a non-zero status, never written (a disk named by mistake stays as it is) nor replaced.
    @Test func aScreenshotIntoADeviceIsRefusedNeverReplaced() throws {
        let null = folder.path + "/null.png", full = folder.path + "/full.png"
        try #require(mknod(null, S_IFCHR | 0o600, device(1, 3)) == 0, "making a device needs root, as the tests run")
        try #require(mknod(full, S_IFCHR | 0o600, device(1, 7)) == 0)
        for path in [null, full] {
            let (status, errors) = try ViewerProcess.run(["--headless", "--size", "120x90", "--screenshot", path])
            #expect(status != 0)
            #expect(errors == "photozoom: error: cannot write the screenshot \(path): it is a device, not a file; nothing is written to one\n", "\(errors)")
        }
        #expect(mode(null) == S_IFCHR && mode(full) == S_IFCHR, "both still devices")
        #expect(leftovers.isEmpty)
    }

    /// A trace into a device: refused before the run starts, with one line; the device stays one.
    @Test func aTraceIntoADeviceIsRefused() throws {
        let full = folder.path + "/trace.jsonl", shot = folder.path + "/shot.png"
        try #require(mknod(full, S_IFCHR | 0o600, device(1, 7)) == 0, "making a device needs root, as the tests run")
        let script = try folder.write("frames.txt", Array("wait 200\n".utf8))   // frames, so trace lines
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "120x90", "--script", script, "--trace", full,
                                                      "--screenshot", shot])
        #expect(status != 0)
        #expect(errors == "photozoom: error: cannot write the trace \(full): it is a device, not a file; nothing is written to one\n", "\(errors)")
        #expect(mode(full) == S_IFCHR && !FileManager.default.fileExists(atPath: shot))
    }

    /// A path under a regular file, or a folder: one line, a non-zero status, nothing left behind.
    @Test func impossibleScreenshotPathsAreOneLineEach() throws {
        let file = try folder.write("photo.jpg", [1, 2, 3])
        let (underFile, e1) = try ViewerProcess.run(["--headless", "--size", "120x90", "--screenshot", file + "/x.png"])
        #expect(underFile != 0 && e1 == "photozoom: error: cannot write the screenshot \(file)/x.png: a part of the path is a file, not a folder\n", "\(e1)")
        let (intoFolder, e2) = try ViewerProcess.run(["--headless", "--size", "120x90", "--screenshot", folder.path])
        #expect(intoFolder != 0 && e2 == "photozoom: error: cannot write the screenshot \(folder.path): it is a folder\n", "\(e2)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([1, 2, 3]) && leftovers.isEmpty)
    }

    /// A regular file named as the screenshot is replaced whole; through a link, the file it names is.
    @Test func aScreenshotReplacesAFileAndFollowsALink() throws {
        let target = try folder.write("old.png", [1])
        let link = folder.path + "/link.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "120x90", "--screenshot", link])
        #expect(status == 0, "\(errors)")
        #expect(mode(link) == S_IFLNK, "the link is still a link")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// A script from standard input (`-`) or through a pipe (`<(generate)`) plays as a file does.
    @Test func aScriptComesFromStandardInputOrAPipe() throws {
        let script = "key Right\nwait 100\nkey Return\nwait 900\n"
        let fromFile = folder.path + "/from-file.png", fromInput = folder.path + "/from-input.png", fromPipe = folder.path + "/from-pipe.png"
        let file = try folder.write("script.txt", Array(script.utf8))
        let photos = TestImages.bundledFolder
        let (s1, e1) = try ViewerProcess.run(["--headless", "--size", "200x150", "--script", file, "--screenshot", fromFile, photos])
        let (s2, e2) = try ViewerProcess.run(["--headless", "--size", "200x150", "--script", "-", "--screenshot", fromInput, photos],
                                             input: Data(script.utf8))
        let pipe = folder.path + "/script.fifo"
        #expect(mkfifo(pipe, 0o600) == 0)
        let writer = Thread { FileHandle(forWritingAtPath: pipe)?.write(Data(script.utf8)) }
        writer.start()
        let (s3, e3) = try ViewerProcess.run(["--headless", "--size", "200x150", "--script", pipe, "--screenshot", fromPipe, photos])
        #expect(s1 == 0 && s2 == 0 && s3 == 0, "\(e1)\(e2)\(e3)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: fromFile))
        #expect(try Data(contentsOf: URL(fileURLWithPath: fromInput)) == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fromPipe)) == expected)
    }

    @Test func aMissingScriptIsOneLineInPlainWords() throws {
        let (status, errors) = try ViewerProcess.run(["--headless", "--script", folder.path + "/none.txt"])
        #expect(status != 0)
        #expect(errors == "photozoom: error: cannot read the script \(folder.path)/none.txt: no such file\n", "\(errors)")
    }
}

private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Data?
    func set(_ data: Data) { lock.withLock { value = data } }
    var data: Data? { lock.withLock { value } }
}
