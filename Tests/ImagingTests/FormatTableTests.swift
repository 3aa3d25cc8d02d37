import Foundation
import Testing
import TestSupport
@testable import Imaging

/// The format table is written once: sniffing, the folder listing, the `.desktop` file's MimeType,
/// README's format table and the manual all say what it says.
@Suite struct FormatTableTests {
    /// README's format table, as the table's rows give it.
    static func readmeRow(_ f: ImageFormat) -> String {
        "| \(f.name) | \(f.library) | \(f.extensions.map { "`.\($0)`" }.joined(separator: " ")) | "
            + "\(f.mimeTypes.map { "`\($0)`" }.joined(separator: " ")) | \(f.capabilities.words.joined(separator: ", ")) |"
    }

    @Test func readmesFormatTableIsTheCodes() throws {
        let readme = try String(contentsOf: TestImages.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let table = try #require(readme.components(separatedBy: "| format | decoded by | extensions | MIME types | also |").dropFirst().first)
        // After the header: its rule, then the rows (indented in their list item).
        let rows = Array(table.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.prefix { $0.hasPrefix("|") })
        #expect(rows == ImageFormat.all.map(Self.readmeRow), "README's rows:\n\(rows.joined(separator: "\n"))")
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
}
