import Testing
@testable import Imaging

@Suite struct WebPDecodingTests {
    @Test func decodesLossy() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("quadrants.webp"))
        #expect(decoded.format == .webp)
        expectQuadrants(decoded.image, quadrants, tolerance: 8)
    }

    @Test func decodesLosslessWithAlpha() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("alpha.webp")).image
        expectQuadrants(image, [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)], tolerance: 2)
    }

    @Test func decodesARealPhotographAndScalesIt() throws {
        let full = try ImageDecoder.decode(path: FixturePaths.fixture("chelsea.webp"))
        #expect(full.image.width == 451 && full.image.height == 300)
        let small = try ImageDecoder.decode(path: FixturePaths.fixture("chelsea.webp"), atLeast: (150, 100))
        #expect(small.image.width == 151 && small.image.height == 100)
        #expect(small.fullSize == (451, 300))
    }
}
