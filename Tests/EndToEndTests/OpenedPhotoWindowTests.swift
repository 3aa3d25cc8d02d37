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
}
