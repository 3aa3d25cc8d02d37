import Testing
@testable import Imaging

@Suite struct JPEGDecodingTests {
    @Test(arguments: ["baseline.jpg", "progressive.jpg"])
    func decodesColourJPEG(_ file: String) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(file))
        #expect(decoded.format == .jpeg)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, quadrants, tolerance: 6)
    }

    @Test func decodesGreyscale() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("grayscale.jpg")).image
        // ImageMagick made the fixture with Rec. 709 luma: red, green, blue, white.
        let luma = [54, 182, 18, 255].map { RGBA(r: $0, g: $0, b: $0) }
        expectQuadrants(image, luma, tolerance: 6)
    }

    @Test func decodesAdobeCMYK() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("cmyk.jpg")).image
        expectQuadrants(image, quadrants, tolerance: 8)
    }

    @Test func decodesARealPhotograph() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.bundled("grace_hopper.jpg"))
        #expect(decoded.image.width == 512 && decoded.image.height == 600)
        #expect(decoded.fullSize == (512, 600))
    }

    /// The DCT-domain reduction: the smallest of libjpeg-turbo's factors (1/8, 1/4, 3/8, 1/2 … 7/8)
    /// that still covers the asked size.
    @Test(arguments: [
        (500, 300, 528, 396),      // 1/8 covers it
        (500, 400, 1056, 792),     // 1/8 is 396 tall, too small: 1/4
        (1100, 100, 1584, 1188),   // 3/8
        (2000, 1000, 2112, 1584),  // 1/2
        (3000, 3000, 4224, 3168),  // nothing smaller covers it: full size
    ])
    func reducedSizeDecodeGivesTheAskedSize(askW: Int, askH: Int, expectW: Int, expectH: Int) throws {
        let data = try [UInt8](contentsOf: FixturePaths.bundled("Dragonfly_by_Bolly.jpg"))
        let (image, full) = try JPEGDecoder.decode(data, atLeast: (askW, askH))
        #expect(full == (4224, 3168))
        #expect((image.width, image.height) == (expectW, expectH))
    }

    @Test func thumbnailDecodeCoversTheCellWithoutDecodingFullSize() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.bundled("Dragonfly_by_Bolly.jpg"), atLeast: (180, 180))
        // 1/8 gives 528x396; then it is shrunk to the smallest size that still covers 180x180.
        #expect(decoded.image.height == 180)
        #expect(decoded.image.width == 240)
        #expect(decoded.fullSize == (4224, 3168))
    }
}
