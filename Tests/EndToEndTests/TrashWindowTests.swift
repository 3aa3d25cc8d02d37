import Foundation
import Testing
import TestSupport

/// Delete in a real window, with real keys and clicks (XTest): the photo goes to the trash and the next one
/// shows; a click on the card's Undo puts the folder back byte for byte; the bar's trash button deletes
/// too, and what is not undone waits in the trash with its `.trashinfo`.
@Suite struct TrashWindowTests {
    @Test func deleteUndoByTheCardThenTheTrashButton() throws {
        let session = try WindowSession()
        let photos = try TemporaryFolder(), data = try TemporaryFolder()
        for name in ["grace_hopper.jpg", "chelsea.png", "Kleiber_by_Lukas_Baubkus.jpg"] {
            try photos.copy(TestImages.bundledFolder + "/" + name, as: name)
        }
        func contents() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: photos.path + "/" + name))
            }
            return files
        }
        func trashed() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: data.path + "/Trash/files")) ?? [] }
        let before = try contents()
        let (viewer, window) = try session.launch(["--size", "400x300", "--no-thumbnail-cache", "--verbose", photos.path],
                                                  environment: ["XDG_DATA_HOME": data.path])
        func title() -> String? { session.title(of: window).flatMap { $0.hasSuffix(" — Photos") ? String($0.dropLast(9)) : nil } }
        func click(_ x: Int, _ y: Int) {
            session.client.movePointer(to: x, y)
            session.client.click(button: 1)
        }

        // Open the first photo (its thumbnail in: a cell still loading opens nothing), and press Delete.
        #expect(session.wait { viewer.standardError.contains("grid complete") }, "\(viewer.standardError)")
        click(60, 110)
        #expect(session.wait { title() != nil }, "the photo opened")
        let first = try #require(title())
        // Delete waits for nothing: pressed while the photo still flies in, it is ignored; pressed again then.
        for _ in 0..<10 where trashed().isEmpty {
            session.client.press(key: "Delete")
            _ = session.wait(seconds: 1) { !trashed().isEmpty }
        }
        #expect(trashed() == [first], "\(viewer.standardError)")
        #expect(session.wait { title() != nil && title() != first }, "the next photo shows: \(title() ?? "none")")

        // The card's Undo, at the bottom right: the same photo, the same folder.
        click(340, 250)
        #expect(session.wait { trashed().isEmpty && (try? contents()) == before }, "\(viewer.standardError)")
        #expect(session.wait { title() == first }, "the photo shows again: \(title() ?? "none")")

        // The bar's trash button (left of the heart), and no undo.
        usleep(500_000)
        click(300, 28)
        #expect(session.wait { trashed() == [first] }, "\(viewer.standardError)")
        session.client.sendDeleteWindow(window)
        #expect(viewer.waitForExit(seconds: 20) == 0)
        var left = before
        left[first] = nil
        #expect(try contents() == left)
        let info = try String(contentsOfFile: data.path + "/Trash/info/\(first).trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(photos.path)/\(first)\nDeletionDate="), "\(info)")
    }
}
