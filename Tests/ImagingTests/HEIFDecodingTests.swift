import Testing
@testable import Imaging

/// HEIC and AVIF, as phones and encoders write them: upright, the right size, the right colours.
@Suite struct HEIFDecodingTests {
    @Test(arguments: [("quadrants.heic", ImageFormat.heic), ("quadrants.avif", .avif), ("quadrants-10bit.heic", .heic)])
    func aHEIFPictureIsDecoded(name: String, format: ImageFormat) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        #expect(decoded.format == format)
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, quadrants, tolerance: 6)
    }

    /// The container's turn (irot) is applied once: the EXIF orientation 6 inside describes the same
    /// turn and is not applied again.
    @Test func theContainersRotationIsAppliedOnceNotAgainFromEXIF() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("rotated-exif6.heic"))
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64)
        expectQuadrants(decoded.image, quadrants, tolerance: 6)
    }

    @Test func theContainersMirrorIsApplied() throws {
        expectQuadrants(try ImageDecoder.decode(path: FixturePaths.fixture("mirrored.heic")).image, quadrants, tolerance: 6)
    }

    /// Alpha comes through: the bottom-right quadrant is white at half opacity.
    @Test func alphaIsKept() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("alpha.heic")).image
        #expect(!image.isOpaque)
        expectQuadrants(image, [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)], tolerance: 6)
    }

    /// For a grid cell, the file's 320x240 thumbnail item is decoded, not the 1024x768 picture.
    @Test func aSmallPictureComesFromTheThumbnailItem() throws {
        let data = try [UInt8](contentsOf: FixturePaths.fixture("thumbnail-item.heic"))
        let small = try HEIFDecoder.decode(DecodeRequest(data: data, atLeast: (180, 180)))
        #expect((small.image.width, small.image.height) == (320, 240))
        #expect(small.fullSize == (1024, 768), "the photo's own size, not the thumbnail's")
        let large = try HEIFDecoder.decode(DecodeRequest(data: data, atLeast: (400, 300)))
        #expect((large.image.width, large.image.height) == (512, 384), "the thumbnail does not cover 400x300: the photo, halved")
        expectQuadrants(small.image, quadrants, tolerance: 8)
    }

    /// A picture shown at a quarter of its size is shrunk as it is decoded, to what the whole picture shrunk by
    /// averaging would give: upright, mirrored, and in the file's own colours (converted later, as the whole one).
    @Test(arguments: ["quadrants.heic", "quadrants.avif", "rotated-exif6.heic", "mirrored.heic", "red-p3-nclx.heic",
                      "red-p3-nclx.avif", "thumbnail-item.heic"])
    func aPictureShownSmallIsShrunkAsTheWholeWouldBe(name: String) throws {
        let data = try [UInt8](contentsOf: FixturePaths.fixture(name))
        let whole = try HEIFDecoder.decode(DecodeRequest(data: data, atLeast: nil))
        let size = (width: whole.image.width / 4, height: whole.image.height / 4)
        // A thumbnail item covering a quarter would be taken instead: asked for one pixel more than it has.
        let asked = name == "thumbnail-item.heic" ? (width: 321, height: 192) : size
        let shrunk = try HEIFDecoder.decode(DecodeRequest(data: data, atLeast: asked))
        let factor = name == "thumbnail-item.heic" ? 2 : 4
        #expect((shrunk.image.width, shrunk.image.height) == (whole.image.width / factor, whole.image.height / factor), "\(name)")
        #expect(shrunk.fullSize == whole.fullSize && shrunk.colour == whole.colour)
        var worst = 0
        for y in 0..<shrunk.image.height {
            for x in 0..<shrunk.image.width {
                let mean = whole.image.mean(x: x * factor, y: y * factor, side: factor), got = shrunk.image.rgba(x: x, y: y)
                worst = max(worst, abs(got.r - mean.r), abs(got.g - mean.g), abs(got.b - mean.b))
            }
        }
        #expect(worst <= 2, "\(name): a pixel differs by \(worst) levels")
    }

    /// A picture with alpha, or of more than 8 bits, is decoded whole and shrunk afterwards.
    @Test(arguments: ["alpha.heic", "quadrants-10bit.heic"])
    func alphaAndDeepPicturesAreDecodedWhole(name: String) throws {
        let data = try [UInt8](contentsOf: FixturePaths.fixture(name))
        let decoded = try HEIFDecoder.decode(DecodeRequest(data: data, atLeast: (16, 12)))
        #expect((decoded.image.width, decoded.image.height) == (64, 48), "\(name)")
    }

    /// Display P3 numbers for pure sRGB red, tagged with nclx code points (primaries 12): sRGB red.
    @Test(arguments: ["red-p3-nclx.heic", "red-p3-nclx.avif"])
    func nclxPrimariesAreHonoured(name: String) throws {
        let shown = try ImageDecoder.decode(path: FixturePaths.fixture(name)).image.rgba(x: 10, y: 10)
        #expect(shown.deltaE(red) < 2, "\(name): \(shown), ΔE \(shown.deltaE(red))")
    }

    /// sRGB red in ProPhoto numbers with its ICC profile in the `colr` box: sRGB red.
    @Test func anICCProfileInColrIsHonoured() throws {
        let shown = try ImageDecoder.decode(path: FixturePaths.fixture("red-prophoto.heic")).image.rgba(x: 10, y: 10)
        #expect(shown.deltaE(red) < 2, "\(shown), ΔE \(shown.deltaE(red))")
    }

    /// Cut short, or not HEIF inside: named, never a crash.
    @Test func aDamagedHEICIsNamed() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.fixture("thumbnail-item.heic"))
        #expect { try ImageDecoder.decode(data: Array(whole.prefix(whole.count / 2))) } throws: { error in
            (error as? ImageDecodeError).map { "\($0)".hasPrefix("damaged HEIC data") } ?? false
        }
    }
}
