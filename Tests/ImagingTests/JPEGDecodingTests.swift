import Pixels
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
        let (image, full, _) = try JPEGDecoder.decodeStored(data, atLeast: (askW, askH))
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

    /// A panorama wider than Cairo's 32767 px, within the pixel limit, is decoded reduced, not refused;
    /// its full size is still its own.
    @Test func aPanoramaWiderThanCairosLimitIsDecodedReduced() throws {
        let panorama = PixelImage(width: 40_000, height: 400, isOpaque: true)
        for y in 0..<400 { for x in stride(from: 0, to: 40_000, by: 1) { panorama.setPixel(x: x, y: y, x < 20_000 ? 0xFFFF_0000 : 0xFF00_00FF) } }
        let bytes = try #require(JPEGEncoder.encode(panorama, quality: 80))
        let decoded = try ImageDecoder.decode(data: bytes)
        #expect(decoded.image.width <= ImageLimits.maxSide && decoded.image.width >= 16_000, "\(decoded.image.width)")
        #expect(decoded.fullSize == (40_000, 400))
        #expect(decoded.image.rgba(x: 100, y: decoded.image.height / 2).r > 200 && decoded.image.rgba(x: decoded.image.width - 100, y: decoded.image.height / 2).b > 200)
        let thumbnail = try ImageDecoder.decode(data: bytes, atLeast: (180, 180))
        #expect(thumbnail.image.height >= 180 && thumbnail.image.width <= ImageLimits.maxSide)
    }
}
