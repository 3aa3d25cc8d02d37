import Cairo
import CCairo
import Foundation
import Glibc
import Pixels
import Synchronization
import Testing
import TestSupport
@testable import Imaging

/// Files that are not pictures, or broken ones: each gives an error whose text says why.
@Suite struct BadInputTests {
    /// Removed when the test is over.
    private let temporary: TemporaryFolder
    let folder: URL

    init() throws {
        temporary = try TemporaryFolder()
        folder = temporary.url
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func emptyFile() throws {
        let path = try write("empty.jpg", [])
        #expect(throws: ImageDecodeError.empty) { try ImageDecoder.decode(path: path) }
        #expect(ImageDecodeError.empty.description == "the file is empty")
    }

    @Test func textNamedJPEG() throws {
        let path = try write("notes.jpg", Array("shopping list: milk, eggs\n".utf8))
        #expect(throws: ImageDecodeError.unknownFormat) { try ImageDecoder.decode(path: path) }
    }

    /// A JPEG cut short (baseline or progressive) shows what was decoded, the rest grey, and says so.
    @Test(arguments: [("grace_hopper.jpg", false), ("progressive.jpg", true)])
    func aTruncatedJPEGShowsItsDecodedPart(name: String, isFixture: Bool) throws {
        let whole = try [UInt8](contentsOf: isFixture ? FixturePaths.fixture(name) : FixturePaths.bundled(name))
        let path = try write("cut-" + name, Array(whole.prefix(whole.count * 6 / 10)))
        let decoded = try ImageDecoder.decode(path: path)
        let problem = try #require(decoded.problem, "the damage is named")
        #expect(problem.localizedCaseInsensitiveContains("premature end"), "\(problem)")
        let full = try ImageDecoder.decode(path: isFixture ? FixturePaths.fixture(name) : FixturePaths.bundled(name)).image
        #expect(decoded.image.width == full.width && decoded.image.height == full.height)
        // The last row is grey (or the progressive scan's coarse first pass), never left empty.
        let last = decoded.image.rgba(x: decoded.image.width / 2, y: decoded.image.height - 1)
        #expect(last.a == 255)
        if !isFixture {
            #expect(decoded.image.rgba(x: 10, y: 10) == full.rgba(x: 10, y: 10), "the top as the whole file has it")
            #expect(abs(last.r - 128) <= 2 && abs(last.g - 128) <= 2 && abs(last.b - 128) <= 2, "the missing rows grey: \(last)")
        }
    }

    /// A PNG cut short shows the rows decoded before the cut, the rest grey, and says so.
    @Test func aTruncatedPNGShowsItsDecodedPart() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.bundled("chelsea.png"))
        let full = try ImageDecoder.decode(data: whole)
        #expect(full.problem == nil)
        let decoded = try ImageDecoder.decode(path: try write("cut.png", Array(whole.prefix(whole.count / 2))))
        let problem = try #require(decoded.problem, "the damage is named")
        #expect(problem.hasPrefix("truncated or damaged PNG (the file ends early)"), "\(problem)")
        let (image, reference) = (decoded.image, full.image)
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(image.rgba(x: 40, y: 10) == reference.rgba(x: 40, y: 10), "the top as the whole file has it")
        let last = image.rgba(x: image.width / 2, y: image.height - 1)
        #expect(last.r == 128 && last.g == 128 && last.b == 128 && last.a == 255, "the missing rows grey: \(last)")
    }

    @Test func aTruncatedWebPIsNamed() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.fixture("chelsea.webp"))
        let path = try write("cut.webp", Array(whole.prefix(whole.count / 2)))
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(path: path) }
    }

    @Test func absurdClaimedSizeIsRefusedBeforeDecoding() throws {
        #expect(throws: ImageDecodeError.tooLarge(width: 100000, height: 100000)) {
            try ImageDecoder.decode(path: FixturePaths.fixture("huge-claim.png"))
        }
        #expect(ImageDecodeError.tooLarge(width: 100000, height: 100000).description.contains("100000×100000"))
    }

    /// Listed, then gone before its decode: named as vanished.
    @Test func aFileThatVanishedIsNamed() {
        #expect(throws: ImageDecodeError.vanished) {
            try ImageDecoder.decode(path: folder.appendingPathComponent("nope.jpg").path)
        }
        #expect(ImageDecodeError.vanished.description == "it vanished after the folder was read (no such file)")
    }

    /// A file written over again and again, in place, while it is decoded: every decode gives the old
    /// picture, the new one, or an error, never a mix of the two files' bytes. The two are the same
    /// length (the shorter padded after its end marker), so that only the bytes tell them apart.
    @Test(.timeLimit(.minutes(1)))
    func aFileChangingWhileDecodedGivesItsOldOrNewPictureNeverAMix() throws {
        let photo = try [UInt8](contentsOf: FixturePaths.bundled("grace_hopper.jpg"))
        let pattern = try #require(JPEGEncoder.encode(TestPattern.checkerboard(width: 512, height: 600), quality: 95))
        let length = max(photo.count, pattern.count)
        let a = photo + [UInt8](repeating: 0, count: length - photo.count)
        let b = pattern + [UInt8](repeating: 0, count: length - pattern.count)
        let pictures = try [a, b].map { try ImageDecoder.decode(data: $0).image }
        let path = try write("changing.jpg", a)
        let writing = Atomic(true)
        let writer = Thread {
            let fd = open(path, O_WRONLY)
            var turn = 0
            // Bursts of rewrites 200 µs apart, with rests between them (as a program saving, or a
            // download, writes): a decode in a burst is refused or retried, one in a rest succeeds.
            while writing.load(ordering: .relaxed) {
                for _ in 0..<20 {
                    turn += 1
                    _ = (turn % 2 == 0 ? a : b).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                    usleep(200)
                }
                usleep(30_000)
            }
            close(fd)
        }
        writer.start()
        defer { writing.store(false, ordering: .relaxed) }
        var shown = 0
        for _ in 0..<300 {
            guard let decoded = try? ImageDecoder.decode(path: path) else { continue }
            #expect(pictures.contains { samePixels($0, decoded.image) }, "a decode mixed the two files: \(decoded.problem ?? "")")
            shown += 1
        }
        #expect(shown > 0)
    }

    /// A FIFO passed as a photo is refused at once, never waited on; a folder is named as one.
    @Test(.timeLimit(.minutes(1)))
    func aPipeOrAFolderIsRefusedWithoutWaiting() throws {
        let fifo = folder.appendingPathComponent("pipe.jpg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ImageDecodeError.unreadable("not a regular file")) { try ImageDecoder.decode(path: fifo) }
        #expect(throws: ImageDecodeError.unreadable("not a regular file")) { try ImageDecoder.decode(path: folder.path) }
    }
}

/// Cairo's statuses go through one funnel, as typed errors that say what was being done.
@Suite struct CairoStatusTests {
    @Test func aFailedCairoCallIsATypedErrorThatSaysWhatFailed() {
        #expect(throws: CairoError(doing: "encoding a PNG", status: "error while writing to output stream")) {
            try CairoError.check(CAIRO_STATUS_WRITE_ERROR, doing: "encoding a PNG")
        }
        #expect(throws: Never.self) { try CairoError.check(CAIRO_STATUS_SUCCESS, doing: "anything") }
    }

    /// Cairo gives an inert surface, not nil, for a size it can't hold: the funnel names it.
    @Test func aSurfaceCairoCannotMakeIsAnErrorNotABlankPicture() throws {
        #expect(throws: CairoError(doing: "making a frame", status: "invalid value (typically too big) for the size of the input (surface, pattern, etc.)")) {
            _ = try CairoError.checked(surface: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 40000, 10), doing: "making a frame")
        }
        let surface = try CairoError.checked(surface: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4), doing: "making a frame")
        defer { cairo_surface_destroy(surface) }
        let cr = try CairoError.context(on: surface, doing: "drawing")
        cairo_destroy(cr)
        let broken = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, -1, 10)
        defer { cairo_surface_destroy(broken) }
        #expect(throws: CairoError.self) { _ = try CairoError.context(on: broken!, doing: "drawing") }
    }
}

private func samePixels(_ a: PixelImage, _ b: PixelImage) -> Bool {
    a.width == b.width && a.height == b.height
        && (0..<a.height).allSatisfy { memcmp(a.bytes + $0 * a.stride, b.bytes + $0 * b.stride, a.width * 4) == 0 }
}

private enum TestPattern {
    static func checkerboard(width: Int, height: Int) -> PixelImage {
        let image = PixelImage(width: width, height: height, isOpaque: true)
        for y in 0..<height { for x in 0..<width { image.setPixel(x: x, y: y, (x / 32 + y / 32) % 2 == 0 ? 0xFF20_4080 : 0xFFE0_C040) } }
        return image
    }
}
