import Testing
@testable import Imaging

/// JPEG XL as cjxl writes it, lossless and lossy.
@Suite struct JXLDecodingTests {
    @Test(arguments: [("quadrants.jxl", 2), ("quadrants-lossy.jxl", 12)])
    func aJXLIsDecoded(name: String, tolerance: Int) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        #expect(decoded.format == .jxl)
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, quadrants, tolerance: tolerance)
    }

    @Test func alphaIsKept() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("alpha.jxl")).image
        #expect(!image.isOpaque)
        expectQuadrants(image, [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)], tolerance: 2)
    }

    /// sRGB red stored in ProPhoto numbers: lossless keeps the profile (converted by lcms2), lossy has
    /// the decoder give sRGB.
    @Test(arguments: ["red-prophoto.jxl", "red-prophoto-lossy.jxl"])
    func itsColourIsHonoured(name: String) throws {
        let shown = try ImageDecoder.decode(path: FixturePaths.fixture(name)).image.rgba(x: 10, y: 10)
        #expect(shown.deltaE(red) < 2, "\(name): \(shown), ΔE \(shown.deltaE(red))")
    }

    @Test func aTruncatedJXLIsNamed() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.fixture("red-prophoto.jxl"))
        #expect(throws: ImageDecodeError.corrupt(format: "JPEG XL", detail: "the data is damaged or cut short")) {
            try ImageDecoder.decode(data: Array(whole.prefix(whole.count / 2)))
        }
    }
}
