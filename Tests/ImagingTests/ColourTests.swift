import Testing
@testable import Imaging

/// Embedded colour descriptions are honoured: pictures come out in the target's colours (sRGB unless
/// a display profile is set), whatever space their numbers were stored in.
@Suite struct ColourTests {
    /// Pure sRGB red, stored as Adobe RGB and as ProPhoto RGB numbers with their profile, in each
    /// format that carries an ICC profile: drawn as sRGB red.
    @Test(arguments: ["red-adobergb.jpg", "red-prophoto.jpg", "red-adobergb.png", "red-prophoto.png",
                      "red-adobergb.webp", "red-prophoto.webp"])
    func aTaggedPictureIsDrawnInItsTrueColours(name: String) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        let shown = decoded.image.rgba(x: 10, y: 10)
        #expect(shown.deltaE(red) < 2, "\(name): \(shown), ΔE \(shown.deltaE(red))")
        // Read as if its numbers were sRGB, it would be visibly off.
        let stored = try ImageDecoder.decode(data: strippedOfProfile(name)).image.rgba(x: 10, y: 10)
        #expect(stored.deltaE(red) > 5, "\(name): the stored numbers \(stored) differ from sRGB red")
    }

    /// A profile that swaps red and green, on numbers with red and green swapped: the quadrants as they
    /// should be. In a JPEG, also across three APP2 segments (a profile larger than 64 KiB).
    @Test(arguments: ["swapped-icc.png", "swapped-icc.jpg", "swapped-icc-segments.jpg", "swapped-chrm.png"])
    func aProfileThatSwapsChannelsIsApplied(name: String) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        expectQuadrants(decoded.image, quadrants, tolerance: 6)
    }

    /// The one-segment and three-segment JPEGs carry the same profile but for its padding.
    @Test func aProfileAcrossSegmentsIsJoinedInOrder() throws {
        let one = try #require(ICCProfile.inJPEG(try [UInt8](contentsOf: FixturePaths.fixture("swapped-icc.jpg"))))
        let three = try #require(ICCProfile.inJPEG(try [UInt8](contentsOf: FixturePaths.fixture("swapped-icc-segments.jpg"))))
        #expect(three.count > 150_000 && one.count < 65_536)
        #expect(ColourProfile(icc: three)?.name == "Swapped Red and Green")
    }

    /// Segments that do not add up (one missing) give no profile: the picture is taken as sRGB, never
    /// read from a profile cut short.
    @Test func anIncompleteProfileIsNotUsed() throws {
        var bytes = try [UInt8](contentsOf: FixturePaths.fixture("swapped-icc-segments.jpg"))
        // The second segment's sequence number (its marker is the second "ICC_PROFILE\0").
        let tag = Array("ICC_PROFILE\0".utf8)
        let starts = (0..<(bytes.count - tag.count)).filter { bytes[$0..<($0 + tag.count)].elementsEqual(tag) }
        #expect(starts.count == 3)
        bytes[starts[1] + tag.count] = 3
        #expect(ICCProfile.inJPEG(bytes) == nil)
        let decoded = try ImageDecoder.decode(data: bytes)
        expectQuadrants(decoded.image, [green, red, blue, white], tolerance: 6)
    }

    /// Converting into a display profile: sRGB red shown on an Adobe RGB display has Adobe RGB's
    /// numbers for that red; back to sRGB (a screenshot) it is red again.
    @Test func picturesAreConvertedIntoTheDisplaysProfileAndBack() throws {
        let display = try #require(ColourTarget(iccProfile: try [UInt8](contentsOf: "/usr/share/color/icc/colord/AdobeRGB1998.icc")))
        #expect(display.name == "Compatible with Adobe RGB (1998)" && !display.isSRGBLike, "\(display.name)")
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("rgb8.png"), colour: display)
        let onDisplay = decoded.image.rgba(x: 10, y: 10)
        #expect(abs(onDisplay.r - 219) <= 2 && onDisplay.g <= 4 && onDisplay.b <= 2, "\(onDisplay)")
        display.convertToSRGB(decoded.image)
        expectQuadrants(decoded.image, quadrants, tolerance: 3)
        // An sRGB display profile converts nothing.
        let sRGBDisplay = try #require(ColourTarget(iccProfile: try [UInt8](contentsOf: "/usr/share/color/icc/colord/sRGB.icc")))
        #expect(sRGBDisplay.isSRGBLike)
    }

    /// A profile that is not an RGB profile, or not a profile, is passed over: the picture is sRGB.
    @Test func aProfileThatIsNoRGBProfileIsPassedOver() {
        #expect(ColourProfile(icc: Array("not a profile".utf8)) == nil)
        #expect(ColourTarget(iccProfile: []) == nil)
    }

    /// The file's bytes without its colour description (JPEG APP2, PNG iCCP, WebP ICCP), for comparison.
    private func strippedOfProfile(_ name: String) throws -> [UInt8] {
        let bytes = try [UInt8](contentsOf: FixturePaths.fixture(name))
        switch ImageFormat(sniffing: bytes) {
        case .jpeg?:
            var out = Array(bytes[..<2]), i = 2
            while bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                if bytes[i + 1] != 0xE2 { out += bytes[i..<(i + 2 + length)] }
                i += 2 + length
            }
            return out + bytes[i...]
        case .png?:
            var out = Array(bytes[..<8])
            for chunk in PNGChunks(bytes[...], throughImageData: true) where chunk.type != "iCCP" {
                out += bytes[(chunk.payload.lowerBound - 8)..<(chunk.payload.upperBound + 4)]
            }
            return out + [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        default:
            // WebP: the ICCP chunk's code renamed, so that no reader takes it for a profile.
            var out = bytes
            let chunk = try #require(WebPChunks(bytes).first { $0.fourCC == "ICCP" })
            out.replaceSubrange((chunk.payload.lowerBound - 8)..<(chunk.payload.lowerBound - 4), with: Array("XCCP".utf8))
            return out
        }
    }
}
