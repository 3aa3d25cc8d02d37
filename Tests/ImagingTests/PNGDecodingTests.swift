import Pixels
import Testing
@testable import Imaging

/// Every PNG colour type and bit depth (fixtures written byte by byte by make_fixtures.py).
@Suite struct PNGDecodingTests {
    static func grey(_ v: Int, _ a: Int = 255) -> RGBA { RGBA(r: v, g: v, b: v, a: a) }
    static let greyLevels = [grey(0), grey(85), grey(170), grey(255)]

    static let cases: [(String, [RGBA])] = [
        ("gray1.png", [grey(0), grey(255), grey(255), grey(0)]),
        ("gray2.png", greyLevels), ("gray4.png", greyLevels), ("gray8.png", greyLevels), ("gray16.png", greyLevels),
        ("graya8.png", [grey(0), grey(85), grey(170), grey(255, 127)]),
        ("graya16.png", [grey(0), grey(85), grey(170), grey(255, 127)]),
        ("rgb8.png", quadrants), ("rgb16.png", quadrants),
        ("rgba8.png", [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)]),
        ("rgba16.png", [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)]),
        ("palette1.png", [red, blue, blue, red]),
        ("palette2.png", quadrants), ("palette4.png", quadrants), ("palette8.png", quadrants),
        ("palette8-trns.png", [red, green, blue, RGBA(r: 0, g: 0, b: 0, a: 0)]),
    ]

    @Test(arguments: cases)
    func decodesEveryColourTypeAndDepth(_ file: String, _ expected: [RGBA]) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(file))
        #expect(decoded.format == .png)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, expected, tolerance: 1)
    }

    @Test func decodesARealPhotograph() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.bundled("chelsea.png"))
        #expect(decoded.image.width == 451 && decoded.image.height == 300)
        // Chelsea is a ginger cat: the middle of the picture is warm, not grey or blue.
        let centre = decoded.image.rgba(x: 225, y: 150)
        #expect(centre.r > centre.b + 30, "centre pixel \(centre)")
    }

    /// A PNG panorama wider than Cairo's 32767 px, within the pixel limit, is averaged down by a whole
    /// factor as it is read, not refused; its full size is still its own.
    @Test func aPanoramaWiderThanCairosLimitIsDecodedReduced() throws {
        let panorama = PixelImage(width: 40_000, height: 300, isOpaque: true)
        for y in 0..<300 { for x in 0..<40_000 { panorama.setPixel(x: x, y: y, x < 20_000 ? 0xFFFF_0000 : 0xFF00_00FF) } }
        let bytes = try #require(PNGWriter.encode(panorama))
        let decoded = try ImageDecoder.decode(data: bytes)
        #expect(decoded.problem == nil)
        #expect(decoded.image.width == 20_000 && decoded.image.height == 150)
        #expect(decoded.fullSize == (40_000, 300))
        #expect(decoded.image.rgba(x: 100, y: 75) == RGBA(r: 255, g: 0, b: 0, a: 255))
        #expect(decoded.image.rgba(x: 19_900, y: 75) == RGBA(r: 0, g: 0, b: 255, a: 255))
    }
}
