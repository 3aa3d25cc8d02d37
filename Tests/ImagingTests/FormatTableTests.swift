import Foundation
import Testing
import TestSupport
@testable import Imaging

/// The format table is written once: sniffing, the folder listing, the `.desktop` file's MimeType,
/// docs/features.md's format table and the manual all say what it says.
@Suite struct FormatTableTests {
    /// docs/features.md's format table, as the table's rows give it.
    static func readmeRow(_ f: ImageFormat) -> String {
        "| \(f.name) | \(f.library) | \(f.extensions.map { "`.\($0)`" }.joined(separator: " ")) | "
            + "\(f.mimeTypes.map { "`\($0)`" }.joined(separator: " ")) | \(f.capabilities.words.joined(separator: ", ")) |"
    }

    @Test func readmesFormatTableIsTheCodes() throws {
        let readme = try String(contentsOf: TestImages.repository.appendingPathComponent("docs/features.md"), encoding: .utf8)
        let table = try #require(readme.components(separatedBy: "| format | decoded by | extensions | MIME types | also |").dropFirst().first)
        // After the header: its rule, then the rows (indented in their list item).
        let rows = Array(table.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.prefix { $0.hasPrefix("|") })
        #expect(rows == ImageFormat.all.map(Self.readmeRow), "docs/features.md's rows:\n\(rows.joined(separator: "\n"))")
    }

    @Test func theDesktopFileClaimsExactlyTheTablesMimeTypes() throws {
        let desktop = try String(contentsOf: TestImages.repository.appendingPathComponent("Desktop/photozoom.desktop"), encoding: .utf8)
        let line = try #require(desktop.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let claimed = line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        #expect(claimed == ImageFormat.allMimeTypes)
    }

    @Test func noExtensionOrMimeTypeBelongsToTwoFormats() {
        let extensions = ImageFormat.all.flatMap(\.extensions), types = ImageFormat.allMimeTypes
        #expect(Set(extensions).count == extensions.count && Set(types).count == types.count)
        #expect(Set(ImageFormat.all.map(\.name)).count == ImageFormat.all.count)
    }

    /// Every format's fixture is told by its content, whatever its name.
    @Test(arguments: [("baseline.jpg", ImageFormat.jpeg), ("rgb8.png", .png), ("frames.apng", .apng), ("quadrants.webp", .webp),
                      ("frames.gif", .gif), ("quadrants.avif", .avif), ("quadrants.heic", .heic), ("quadrants.jxl", .jxl),
                      ("preview-orientation6.dng", .raw), ("quadrants.tif", .tiff), ("quadrants.svg", .svg)])
    func eachFormatIsToldByItsContent(name: String, format: ImageFormat) throws {
        let head = try [UInt8](contentsOf: FixturePaths.fixture(name)).prefix(ImageFormat.sniffLength)
        #expect(ImageFormat(sniffing: head) == format)
        #expect(format.extensions.contains((name as NSString).pathExtension))
    }

    /// The camera RAW files free tools can't write are told by their signatures: Fujifilm's, Olympus's,
    /// Panasonic's, Canon's CR2 (a TIFF marked "CR") and CR3 (an ISO file of brand "crx "); a TIFF
    /// naming a camera maker with a reduced first picture (NEF, ARW, PEF …) too.
    @Test func cameraRAWSignatures() {
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        // IFD0 with NewSubfileType 1 and Make.
        let nef = tiff + [2, 0] + [0xFE, 0, 4, 0, 1, 0, 0, 0, 1, 0, 0, 0] + [0x0F, 1, 2, 0, 4, 0, 0, 0, 0x4E, 0x49, 0x4B, 0] + [0, 0, 0, 0]
        let plain = tiff + [1, 0] + [0x0F, 1, 2, 0, 4, 0, 0, 0, 0x4E, 0x49, 0x4B, 0] + [0, 0, 0, 0]
        let heads: [([UInt8], ImageFormat)] = [
            (Array("FUJIFILMCCD-RAW 0201FF383501".utf8), .raw),
            (Array("IIRO".utf8) + [8, 0, 0, 0], .raw),
            ([0x49, 0x49, 0x55, 0, 8, 0, 0, 0], .raw),
            (tiff + Array("CR".utf8) + [2, 0], .raw),
            ([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8), .raw),
            (nef, .raw),
            (plain, .tiff),
        ]
        for (head, format) in heads { #expect(ImageFormat(sniffing: head) == format, "\(head.prefix(16))") }
    }
}
