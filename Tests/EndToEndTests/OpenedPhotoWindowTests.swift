import Foundation
import Testing
import TestSupport

/// A photo opened on its own (as a file manager opens it), in a real window: its neighbours are decoded
/// for their pages before their thumbnails are in, so the next photo slides in sharp. (Their shape not known
/// yet, they were once asked for at the size of a 1-point page, and slid in as a 2x1 picture.)
@Suite struct OpenedPhotoWindowTests {
    struct Line: Decodable {
        let page: Int?
        let imagePixels: [Int]?
    }

    @Test func theNextPhotoSlidesInSharp() throws {
        let session = try WindowSession()
        let folder = session.scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = TestImages.repository.appendingPathComponent("Images")
        for (name, source) in [("a.jpg", "grace_hopper.jpg"), ("b.jpg", "Picture_1A_by_freespace.jpg"), ("c.jpg", "life_by_Aitzol_Berasategi.jpg")] {
            try FileManager.default.copyItem(atPath: images.appendingPathComponent(source).path, toPath: folder.appendingPathComponent(name).path)
        }
        let script = session.scratch.appendingPathComponent("next.txt").path, trace = session.scratch.appendingPathComponent("trace.jsonl").path
        try "wait 1000\nkey Right\nwait 1000\nkey q\n".write(toFile: script, atomically: true, encoding: .utf8)
        let (viewer, _) = try session.launch(["--size", "400x500", "--script", script, "--trace", trace, folder.path + "/b.jpg"])
        #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let sliding = lines.filter { $0.page == 2 }
        #expect(sliding.count > 5)
        #expect(sliding.allSatisfy { ($0.imagePixels?[0] ?? 0) >= 400 }, "c.jpg's picture as it slides in: \(sliding.map { $0.imagePixels ?? [] })")
    }

    /// The window's frames at rest go through one of its two buffers: a photo opened on its own and left there
    /// keeps one frame's memory, not two (what feh or nsxiv would hold); the second is drawn into once something
    /// moves (a page turn), so that a frame is drawn while the one before waits for its refresh.
    @Test func aPhotoAtRestHoldsOneFrameAndMotionTheSecond() throws {
        let session = try WindowSession()
        let folder = session.scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = TestImages.repository.appendingPathComponent("Images")
        for (name, source) in [("a.jpg", "grace_hopper.jpg"), ("b.jpg", "Picture_1A_by_freespace.jpg")] {
            try FileManager.default.copyItem(atPath: images.appendingPathComponent(source).path, toPath: folder.appendingPathComponent(name).path)
        }
        let (viewer, _) = try session.launch(["--size", "800x600", folder.path + "/a.jpg"])
        let frame = 800.0 * 600 * 4 / 1024   // kB
        /// The frames' resident memory in the viewer, kB (the buffers it shares with the X server).
        func framesResident() throws -> Double {
            var total = 0.0, inFrame = false
            // Read to its end: Foundation's String(contentsOfFile:) stops a /proc file at 4096 bytes.
            let smaps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(viewer.pid)/smaps")).readToEnd() ?? Data()
            for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
                // A mapping's line ("7f…-7f… rw-s 00000000 00:01 123  /memfd:photozoom-frame (deleted)"), then its fields.
                if !line.contains(":") || line.split(separator: " ").count > 4 {
                    inFrame = line.contains("/memfd:photozoom-frame")
                }
                if inFrame, line.hasPrefix("Rss:") { total += Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0 }
            }
            return total
        }
        usleep(2_000_000)
        let atRest = try framesResident()
        #expect(atRest > frame * 0.9 && atRest < frame * 1.1, "one frame is \(frame) kB; at rest the frames hold \(atRest) kB")
        session.client.movePointer(to: 400, 300)   // the key goes to the window under the pointer (no window manager)
        session.client.press(key: "Right")
        usleep(1_500_000)
        let afterMotion = try framesResident()
        #expect(afterMotion > frame * 1.9, "a page turn draws into both buffers: \(afterMotion) kB")
        #expect(viewer.process.isRunning)
    }
}
