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
