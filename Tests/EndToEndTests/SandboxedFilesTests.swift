import Foundation
import Glibc
import FuzzTargets
import Testing
import TestSupport

/// Files made to crash or exhaust a viewer, each made here by the test: every one is a warning of one line
/// naming it, the viewer's memory stays small and it ends well, headless and in its window.
@Suite(.serialized) struct SandboxedFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    /// The hostile set in a folder of its own, and the names the viewer refuses.
    static func hostileFolder() throws -> (TemporaryFolder, [String]) {
        let folder = try TemporaryFolder()
        return (folder, try HostileSet.write(into: folder.path, fixtures: fixtures).refused)
    }

    @Test func theHostileSetIsOneLineEachHeadless() throws {
        let (folder, failing) = try Self.hostileFolder()
        #expect(HostileSet.gif35.count == 35)
        let out = try TemporaryFolder()
        let started = Date()
        let run = try MeasuredRun(["--headless", "--no-thumbnail-cache", "--size", "400x300", "--screenshot", out.path + "/shot.png", folder.path])
        print("the hostile set, headless: \(Int(Date().timeIntervalSince(started) * 1000)) ms, peak RSS \(run.peakKiB >> 10) MiB")
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardError.split(separator: "\n").map(String.init)
        for name in failing {
            #expect(lines.filter { $0.contains(name) }.count == 1, "one line for \(name): \(run.standardError)")
        }
        // The SVG is drawn (as a vector, at the largest size that keeps its shape), not refused.
        #expect(!run.standardError.contains("huge.svg"), "\(run.standardError)")
        #expect(lines.count == failing.count, "\(run.standardError)")
        #expect(run.peakKiB < 300 << 10, "peak RSS \(run.peakKiB) KiB")
    }

    /// In the window: the grid shows, each failing file is one line, and the viewer quits with status 0.
    @Test func theHostileSetIsOneLineEachInTheWindow() throws {
        let (folder, failing) = try Self.hostileFolder()
        let session = try WindowSession()
        let script = session.scratch.appendingPathComponent("settle.txt").path
        try "settle\n".write(toFile: script, atomically: true, encoding: .utf8)
        let shot = session.scratch.appendingPathComponent("end.png").path
        let (viewer, _) = try session.launch(["--size", "500x400", "--no-thumbnail-cache", "--script", script, "--screenshot", shot, folder.path])
        #expect(viewer.waitForExit(seconds: 60) == 0, "\(viewer.standardError)")
        let lines = viewer.standardError.split(separator: "\n").map(String.init)
        for name in failing {
            #expect(lines.filter { $0.contains(name) }.count == 1, "one line for \(name): \(viewer.standardError)")
        }
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    /// A decoder killed (SIGKILL) or stopped (SIGSTOP, then out of time) under a viewer in its window costs
    /// that photo one line; the next photo decodes and the pool is full again.
    @Test func aDecoderKilledOrStoppedUnderTheWindowCostsOnePhoto() throws {
        let session = try WindowSession()
        let photos = try TemporaryFolder()
        for name in ["grace_hopper.jpg", "chelsea.png", "coffee.png"] { try photos.copy(TestImages.bundledFolder + "/" + name, as: name) }
        let script = session.scratch.appendingPathComponent("open.txt").path
        // Waits long enough for the test to stop and kill decoders, then opens photos to use the new ones.
        try "settle\nwait 4000\ntap 60 110\nsettle\nkey Right\nsettle\nkey Right\nsettle\nwait 4000\n".write(toFile: script, atomically: true, encoding: .utf8)
        let shot = session.scratch.appendingPathComponent("end.png").path   // ends the run after the script
        let (viewer, _) = try session.launch(["--size", "500x400", "--no-thumbnail-cache", "--script", script, "--screenshot", shot,
                                              photos.path], environment: ["PHOTOZOOM_DECODE_SECONDS": "1"])
        let decoders = { DecoderProcesses.of(viewer.pid) }
        #expect(session.wait(seconds: 20) { decoders().count == ProcessInfo.processInfo.activeProcessorCount })
        let first = decoders()
        for (i, pid) in first.sorted().enumerated() { kill(pid, i == 0 ? SIGKILL : SIGSTOP) }
        // Paging through the photos sends work to each lost decoder, which is then replaced.
        #expect(session.wait(seconds: 40) { decoders().count == first.count && decoders().isDisjoint(with: first) },
                "the pool is full again: \(decoders()) after \(first); \(viewer.standardError)")
        #expect(viewer.waitForExit(seconds: 60) == 0, "\(viewer.standardError)")
        let lines = viewer.standardError.split(separator: "\n").filter { $0.contains("decoder") }
        #expect(lines.count <= 2, "at most a line for each decoder lost: \(viewer.standardError)")
        #expect(!viewer.standardError.contains("sandbox is off"), "\(viewer.standardError)")
    }
}
