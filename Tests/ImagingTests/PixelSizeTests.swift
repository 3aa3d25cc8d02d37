import Foundation
import SystemPackage
import Testing
@testable import Imaging

/// A photo's size as its first bytes state it, for the index (no pixel decoded), is the size its decoder
/// gives, in every format whose header says it.
@Suite struct PixelSizeTests {
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "grayscale.jpg", "cmyk.jpg", "palette8.png", "gray16.png",
                      "frames.gif", "quadrants.webp", "alpha.webp", "chelsea.webp", "quadrants.heic", "quadrants.avif",
                      "quadrants-10bit.heic"])
    func theHeaderSaysTheDecodedSize(_ name: String) throws {
        let path = FixturePaths.fixture(name)
        let decoded = try ImageDecoder.decode(path: path).image
        let stated = try #require(PhotoFacts.read(path: FilePath(path))?.pixelSize, "\(name): no size stated")
        #expect(stated == PixelSize(width: decoded.width, height: decoded.height), "\(name)")
    }

    /// As stored: a photo turned by its EXIF orientation states its stored size (the decoder turns it).
    @Test func aTurnedPhotoStatesItsStoredSize() throws {
        let path = FixturePaths.fixture("orientation6.jpg")
        let decoded = try ImageDecoder.decode(path: path).image
        #expect(PhotoFacts.read(path: FilePath(path))?.pixelSize == PixelSize(width: decoded.height, height: decoded.width))
    }

    /// Bytes that only look like a header state nothing rather than a size.
    @Test func cutOrOddHeadersStateNothing() {
        let png = Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 0, 0, 0, 0, 9])
        #expect(PixelSize.stated(in: png[...]) == nil, "a zero width")
        #expect(PixelSize.stated(in: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2][...]) == nil, "a scan before any frame header")
        #expect(PixelSize.stated(in: [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8][...]) == nil, "a frame header cut short")
        #expect(PixelSize.stated(in: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)[...]) == nil, "a WebP cut short")
        #expect(PixelSize.stated(in: Array("GIF8".utf8)[...]) == nil)
    }
}
