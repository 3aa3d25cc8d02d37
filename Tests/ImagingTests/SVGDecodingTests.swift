import Foundation
import Testing
@testable import Imaging

/// SVG: drawn at the size asked for, so it is as sharp at any zoom as at its own size.
@Suite struct SVGDecodingTests {
    @Test func anSVGIsDrawnAtItsDeclaredSize() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("quadrants.svg"))
        #expect(decoded.format == .svg && decoded.isScalable)
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, quadrants, tolerance: 1)
    }

    /// Asked for ten times its size, it is drawn at that size: the edge between two quadrants stays
    /// one pixel wide, where a scaled-up picture would blur it over ten.
    @Test func asked10TimesLargerItIsDrawnSharpAtThatSize() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("quadrants.svg"), atLeast: (640, 480))
        #expect(decoded.fullSize == (64, 48), "its 100 % stays its declared size")
        #expect(decoded.image.width == 640 && decoded.image.height == 480)
        #expect(decoded.image.rgba(x: 319, y: 100) == red && decoded.image.rgba(x: 320, y: 100) == green)
    }

    @Test func withOnlyAViewBoxItTakesItsShape() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("viewbox-only.svg"))
        #expect(decoded.fullSize == (1024, 768))
        expectQuadrants(decoded.image, quadrants, tolerance: 1)
    }

    /// Sniffed by its content: an XML prologue and comments before `<svg`; other XML is not SVG.
    @Test func itIsToldByItsContent() {
        #expect(ImageFormat(sniffing: Array("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- x -->\n<!DOCTYPE svg>\n<svg viewBox=\"0 0 1 1\"/>".utf8)) == .svg)
        #expect(ImageFormat(sniffing: Array("<?xml version=\"1.0\"?><html><svg/></html>".utf8)) == nil)
        #expect(ImageFormat(sniffing: Array("<svgfoo/>".utf8)) == nil)
    }

    /// A picture it refers to is never read (it is loaded with no base address), and a damaged one is named.
    @Test func itReadsNoOtherFileAndADamagedOneIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try [UInt8](contentsOf: FixturePaths.fixture("rgb8.png"))).write(to: folder.appendingPathComponent("secret.png"))
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="48">
            <image href="secret.png" width="64" height="48"/><image xlink:href="file://\(folder.path)/secret.png" width="64" height="48"/></svg>
            """
        let path = folder.appendingPathComponent("refers.svg").path
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        let image = try ImageDecoder.decode(path: path).image
        #expect(image.rgba(x: 10, y: 10).a == 0, "nothing drawn from the file it names")
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(data: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8)) }
    }
}
