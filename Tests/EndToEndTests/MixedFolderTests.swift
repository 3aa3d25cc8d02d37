import Foundation
import Testing
import TestSupport

/// A folder as a phone, a camera and a download folder leave it, names in any case and one without
/// an extension: every file is listed and shown, and nothing is said.
@Suite struct MixedFolderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    struct Entry: Decodable {
        let name: String
        let photo: String?
        let children: [Entry]
        var all: [Entry] { [self] + children.flatMap(\.all) }
    }

    @Test func everyFileOfAMixedFolderIsShown() throws {
        let folder = try TemporaryFolder(), out = try TemporaryFolder()
        let files = ["IMG_0001.HEIC": "rotated-exif6.heic", "IMG_0002.heic": "thumbnail-item.heic", "photo.avif": "quadrants.avif",
                     "IMG_0003.JPG": "orientation6.jpg", "screenshot.png": "rgb8.png", "shot.apng": "frames.apng",
                     "sticker.webp": "frames.webp", "reaction.gif": "frames.gif", "scan.TIFF": "quadrants-cmyk.tif",
                     "DSC_0004.DNG": "preview-orientation6.dng", "logo.svg": "quadrants.svg", "render.jxl": "quadrants-lossy.jxl",
                     "download": "red-adobergb.jpg"]
        for (name, fixture) in files { try folder.copy(Self.fixtures + "/" + fixture, as: name) }
        let script = out.path + "/script.txt", dump = out.path + "/scene.json"
        try "wait 100\ndump \(dump)\n".write(toFile: script, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "800x800", "--script", script, "--screenshot",
                                                      out.path + "/grid.png", folder.path])
        #expect(status == 0)
        #expect(errors.isEmpty, "\(errors)")
        let scene = try JSONDecoder().decode(Entry.self, from: Data(contentsOf: URL(fileURLWithPath: dump)))
        let shown = Set(scene.all.filter { $0.name.hasPrefix("cell.") }.compactMap(\.photo))
        #expect(shown == Set(files.keys), "not shown: \(Set(files.keys).subtracting(shown))")
    }
}
