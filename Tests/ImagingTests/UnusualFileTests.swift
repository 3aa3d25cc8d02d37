import Testing
@testable import Imaging

/// Real files that are whole or valid, but unusual: each is shown when it can be, and named for what
/// it is when it can't (never "damaged" when it is not).
@Suite struct UnusualFileTests {
    /// Three stray bytes before a marker: libjpeg warns, `djpeg` and browsers show the whole picture.
    @Test func aJPEGWithExtraneousBytesBeforeAMarkerIsShownWhole() throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture("extraneous-bytes.jpg"))
        #expect(decoded.problem == nil)
        #expect(decoded.fullSize == (64, 48))
        expectQuadrants(decoded.image, quadrants, tolerance: 8)
    }

    /// Valid JPEGs libjpeg-turbo can't decode: "unsupported", and what they are.
    @Test(arguments: [("precision12.jpg", "unsupported JPEG: 12-bit samples (only 8-bit JPEGs are decoded)"),
                      ("dnl-height.jpg", "unsupported JPEG: its height is given by a DNL marker after the image data")])
    func aValidJPEGTheLibraryCantDecodeIsUnsupportedNotDamaged(name: String, message: String) {
        #expect { try ImageDecoder.decode(path: FixturePaths.fixture(name)) } throws: { error in
            (error as? ImageDecodeError)?.description == message && (error as? ImageDecodeError)?.isLasting == true
        }
    }

    /// A PNG whose chunk claims 1 GiB in a file of a few dozen bytes: named as cut short, and libpng is
    /// never let allocate what the file can't hold (its chunk allocations are bounded by the file).
    @Test(arguments: ["tEXt", "zTXt", "iTXt", "iCCP"])
    func aChunkClaimingMoreThanItsFileIsNamedAsCutShort(kind: String) {
        #expect(throws: ImageDecodeError.corrupt(format: "PNG", detail: "the file ends early")) {
            try ImageDecoder.decode(path: FixturePaths.fixture("claims-1gib-\(kind).png"))
        }
    }

    @Test func anUnknownFileNamesEveryFormatTheViewerKnows() {
        let message = ImageDecodeError.unknownFormat.description
        for format in ImageFormat.all { #expect(message.contains(format.name)) }
    }
}
