import Testing
@testable import Imaging

/// Camera RAW files show the preview the camera embedded, turned as the camera was held.
@Suite struct RAWDecodingTests {
    @Test func aDNGShowsItsPreviewUpright() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("preview-orientation6.dng"))
        #expect(decoded.format == .raw)
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64 && decoded.image.height == 48)
        expectQuadrants(decoded.image, quadrants, tolerance: 8)
    }

    /// A plain TIFF is not a RAW file, whatever it is named; a DNG is told by its version tag.
    @Test func itIsToldFromATIFFByItsContent() throws {
        #expect(ImageFormat(sniffing: try [UInt8](contentsOf: FixturePaths.fixture("quadrants.tif"))) == .tiff)
        #expect(ImageFormat(sniffing: try [UInt8](contentsOf: FixturePaths.fixture("preview-orientation6.dng"))) == .raw)
    }

    @Test(arguments: [(Int32(0), ExifOrientation.up), (3, .down), (5, .left), (6, .right)])
    func librawsFlipIsTheCamerasOrientation(flip: Int32, orientation: ExifOrientation) {
        #expect(RAWDecoder.orientation(flip: flip) == orientation)
    }

    @Test func aCutRAWIsNamed() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.fixture("preview-orientation6.dng"))
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(data: Array(whole.prefix(300))) }
    }
}
