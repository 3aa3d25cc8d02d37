import CCairo
import Foundation
import Glibc
import Testing
@testable import Imaging

/// Files that are not pictures, or broken ones: each gives an error whose text says why.
@Suite struct BadInputTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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

    @Test func truncatedPNGAndWebP() throws {
        for (name, source) in [("cut.png", FixturePaths.bundled("chelsea.png")), ("cut.webp", FixturePaths.fixture("chelsea.webp"))] {
            let whole = try [UInt8](contentsOf: source)
            let path = try write(name, Array(whole.prefix(whole.count / 2)))
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(path: path) }
        }
    }

    @Test func absurdClaimedSizeIsRefusedBeforeDecoding() throws {
        #expect(throws: ImageDecodeError.tooLarge(width: 100000, height: 100000)) {
            try ImageDecoder.decode(path: FixturePaths.fixture("huge-claim.png"))
        }
        #expect(ImageDecodeError.tooLarge(width: 100000, height: 100000).description.contains("100000×100000"))
    }

    @Test func missingFile() {
        #expect(throws: ImageDecodeError.unreadable("no such file")) {
            try ImageDecoder.decode(path: folder.appendingPathComponent("nope.jpg").path)
        }
    }

    @Test func formatComesFromContentNotExtension() throws {
        let png = try [UInt8](contentsOf: FixturePaths.fixture("rgb8.png"))
        let path = try write("actually-a-png.jpg", png)
        #expect(try ImageDecoder.decode(path: path).format == .png)
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
}
