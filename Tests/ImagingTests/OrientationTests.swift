import Testing
@testable import Imaging

/// The eight EXIF orientations, each a fixture whose stored pixels are the upright picture turned
/// the other way, so every one must decode to the same upright 64x48 picture.
@Suite struct OrientationTests {
    @Test(arguments: 1...8)
    func decodesUpright(_ orientation: Int) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("orientation\(orientation).jpg"))
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(decoded.fullSize == (64, 48))
        expectQuadrants(decoded.image, quadrants, tolerance: 6)
    }

    @Test(arguments: 1...8)
    func readsTheTag(_ orientation: Int) throws {
        let bytes = try [UInt8](contentsOf: FixturePaths.fixture("orientation\(orientation).jpg"))
        #expect(ExifOrientation(jpeg: bytes).rawValue == orientation)
    }

    @Test func theBundledRotatedSunsetStandsUpright() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.bundled("sunset_orient6_by_Aitzol_Berasategi.jpg"),
                                              atLeast: (400, 300))
        #expect(decoded.fullSize == (4272, 2848))
        #expect(decoded.image.width > decoded.image.height)
        // The sky is at the top: the top row is brighter than the bottom row.
        func brightness(row y: Int) -> Int {
            (0..<decoded.image.width).reduce(0) { sum, x in
                let p = decoded.image.rgba(x: x, y: y)
                return sum + p.r + p.g + p.b
            }
        }
        #expect(brightness(row: 2) > brightness(row: decoded.image.height - 3))
    }

    /// A PNG's `eXIf` chunk turns it upright as a JPEG's EXIF does.
    @Test func aPNGsExifChunkStandsItUpright() throws {
        let png = try [UInt8](contentsOf: FixturePaths.fixture("rgb8.png"))
        let eXIf = PNGText.chunk(type: "eXIf", data: ExifBlock(orientation: .right).tiff())
        let turned = Array(png[..<33]) + eXIf + Array(png[33...])   // after the signature and IHDR
        #expect(ExifOrientation(png: turned) == .right)
        let plain = try ImageDecoder.decode(data: png).image, decoded = try ImageDecoder.decode(data: turned).image
        #expect(decoded.width == plain.height && decoded.height == plain.width)
        expectQuadrants(decoded, [blue, red, white, green], tolerance: 2)
    }

    /// A WebP's `EXIF` chunk (here with the "Exif\0\0" some writers put first) does too.
    @Test func aWebPsExifChunkStandsItUpright() throws {
        var webp = try [UInt8](contentsOf: FixturePaths.fixture("quadrants.webp"))
        let payload = Array("Exif\0\0".utf8) + ExifBlock(orientation: .left).tiff()
        let size = UInt32(payload.count)
        webp += Array("EXIF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        webp += payload + (payload.count % 2 == 1 ? [0] : [])
        let riff = UInt32(webp.count - 8)
        webp.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24)])
        #expect(ExifOrientation(webp: webp) == .left)
        let decoded = try ImageDecoder.decode(data: webp).image
        // Turned 90° counter-clockwise: the stored top-right comes to the top-left.
        expectQuadrants(decoded, [green, white, red, blue], tolerance: 12)
    }

    @Test func noExifMeansUp() {
        #expect(ExifOrientation(jpeg: [0xFF, 0xD8, 0xFF, 0xD9]) == .up)
    }
}

extension Array where Element == UInt8 {
    init(contentsOf path: String) throws {
        self = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

import Foundation
