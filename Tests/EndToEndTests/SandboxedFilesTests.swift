import Foundation
import Glibc
import Testing
import TestSupport

/// Files made to crash or exhaust a viewer, each made here by the test: every one is a warning of one line
/// naming it, the viewer's memory stays small and it ends well, headless and in its window.
@Suite(.serialized) struct SandboxedFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    /// The hostile set, by name.
    static func hostileFolder() throws -> (TemporaryFolder, [String]) {
        let folder = try TemporaryFolder()
        // Its declared size trapped the viewer (SIGILL) as an Int.
        try folder.write("huge.svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="1e19" height="10"/>"#.utf8))
        try folder.write("tiny.gif", HostileFiles.gif35)
        try folder.write("claims.png", HostileFiles.pngClaiming(width: 16000, height: 15000))
        try folder.write("scans.jpg", try HostileFiles.progressiveJPEG(scans: 10_000, from: fixtures + "/progressive.jpg"))
        try folder.write("outside.apng", try HostileFiles.apngWithFrameOutsideCanvas(from: fixtures + "/frames.apng"))
        return (folder, ["tiny.gif", "claims.png", "scans.jpg", "outside.apng"])
    }

    @Test func theHostileSetIsOneLineEachHeadless() throws {
        let (folder, failing) = try Self.hostileFolder()
        #expect(HostileFiles.gif35.count == 35)
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
        let decoders = { HostileFiles.decoders(of: viewer.pid) }
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

/// The hostile files' bytes.
enum HostileFiles {
    /// One 32767×32767 frame on a 1×1 screen, in 35 bytes: it once cost 4.2 GB.
    static let gif35: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0,   // 1×1 screen, 2 colours
        0, 0, 0, 0xFF, 0xFF, 0xFF,                                                 // black, white
        0x2C, 0, 0, 0, 0, 0xFF, 0x7F, 0xFF, 0x7F, 0,                               // a 32767×32767 image at 0,0
        2, 2, 0x4C, 0x01, 0, 0x3B]                                                 // a few codes, the end

    /// A PNG of a few dozen bytes whose header claims `width`×`height` RGB pixels.
    static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        func be(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + payload
            return be(payload.count) + body + be(Int(CRC32.of(body)))
        }
        let ihdr = be(width) + be(height) + [8, 2, 0, 0, 0]
        // A zlib stream of a few zero bytes (stored block).
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// A progressive JPEG whose last scan is repeated until it has `scans` of them.
    static func progressiveJPEG(scans: Int, from path: String) throws -> [UInt8] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let sos = try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let end = try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 })
        let last = Array(bytes[sos..<end])
        return Array(bytes[..<end]) + Array([[UInt8]](repeating: last, count: scans).joined()) + [0xFF, 0xD9]
    }

    /// `frames.apng` with its first frame control made wider and taller than the canvas.
    static func apngWithFrameOutsideCanvas(from path: String) throws -> [UInt8] {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fctl = try #require((4..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("fcTL".utf8) })
        for at in [fctl + 8, fctl + 12] { bytes.replaceSubrange(at..<(at + 4), with: [0, 0, 0x7F, 0xFF]) }   // 32767×32767
        let crc = CRC32.of(Array(bytes[fctl..<(fctl + 4 + 26)]))
        bytes.replaceSubrange((fctl + 30)..<(fctl + 34), with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return bytes
    }

    /// The decoder processes under the viewer `pid` (its children in its decoder mode).
    static func decoders(of pid: Int32) -> Set<Int32> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        }
        return Set(children.filter { child in
            let command = (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? ""
            return command.contains("--decoder-process")
        })
    }
}

/// The PNG chunks' checksum (CRC-32, ISO 3309).
enum CRC32 {
    static func of(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
