import Testing
@testable import Imaging

/// GIF, APNG and animated WebP: every frame composed as the file says (disposal, blending,
/// transparency), with its own delay and the file's loop count.
@Suite struct AnimationDecodingTests {
    func open(_ name: String) throws -> AnimatedImage {
        try #require(try AnimatedImage.open(data: try [UInt8](contentsOf: FixturePaths.fixture(name))))
    }

    func frames(_ animation: AnimatedImage) throws -> [AnimatedImage.Frame] {
        var all: [AnimatedImage.Frame] = []
        while let frame = try animation.nextFrame() { all.append(frame) }
        return all
    }

    let transparent = RGBA(r: 0, g: 0, b: 0, a: 0)

    /// Red; a green square (its area cleared after it); a blue square with a transparent corner
    /// (put back as it was after it); a white square. Delays 0 (shown 100 ms), 200, 50, 300 ms.
    @Test func aGIFsFramesAreComposedAsItsDisposalSays() throws {
        let gif = try open("frames.gif")
        let all = try frames(gif)
        #expect(all.map(\.duration) == [0.1, 0.2, 0.05, 0.3])
        #expect(gif.loopCount == 3, "NETSCAPE loop count 2: two plays more, as browsers count it")
        let (f1, f2, f3, f4) = (all[0].image, all[1].image, all[2].image, all[3].image)
        #expect(f1.rgba(x: 10, y: 10) == red && f1.rgba(x: 60, y: 40) == red)
        #expect(f2.rgba(x: 10, y: 10) == green && f2.rgba(x: 30, y: 30) == red)
        #expect(f3.rgba(x: 10, y: 10) == transparent, "the green square's area cleared")
        #expect(f3.rgba(x: 50, y: 20) == blue && f3.rgba(x: 41, y: 9) == red, "blue, its transparent corner showing red")
        #expect(f4.rgba(x: 50, y: 20) == red, "the blue square's area put back as before it")
        #expect(f4.rgba(x: 30, y: 30) == white && f4.rgba(x: 10, y: 10) == transparent)
        try gif.rewind()
        #expect(try gif.nextFrame()?.image.rgba(x: 10, y: 10) == red, "rewound, it starts again")
    }

    /// The same story with APNG's operations: the half-white square is blended over red.
    @Test func anAPNGsFramesAreComposedAsTheirControlChunksSay() throws {
        let png = try open("frames.apng")
        #expect(png.format == .apng && png.loopCount == 2)
        let all = try frames(png)
        #expect(all.map(\.duration) == [0.1, 0.2, 0.05, 0.3])
        #expect(all[1].image.rgba(x: 10, y: 10) == green)
        #expect(all[2].image.rgba(x: 10, y: 10) == transparent)
        let pink = all[2].image.rgba(x: 50, y: 20)
        #expect(pink.isClose(to: RGBA(r: 255, g: 128, b: 128), tolerance: 2), "half white over red: \(pink)")
        #expect(all[3].image.rgba(x: 50, y: 20) == red && all[3].image.rgba(x: 30, y: 30) == blue)
    }

    @Test func anAnimatedWebPsFramesAndLoopCount() throws {
        let webp = try open("frames.webp")
        #expect(webp.loopCount == 3)
        let all = try frames(webp)
        #expect(all.map(\.duration) == [0.1, 0.2, 0.05, 0.3])
        #expect(all.map { $0.image.rgba(x: 10, y: 10) } == [red, green, blue, white])
    }

    /// Still decodes: the first frame, and whether more follow (the grid's badge).
    @Test(arguments: [("frames.gif", true), ("still.gif", false), ("frames.apng", true), ("frames.webp", true),
                      ("quadrants.webp", false), ("rgb8.png", false)])
    func aStillDecodeIsTheFirstFrameAndSaysWhetherItMoves(name: String, animated: Bool) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        #expect(decoded.isAnimated == animated)
        if animated { #expect(decoded.image.rgba(x: 10, y: 10) == red) }
        #expect((try AnimatedImage.open(data: try [UInt8](contentsOf: FixturePaths.fixture(name))) != nil) == animated)
    }

    /// Frames come at the size asked for, never larger than the canvas.
    @Test func framesComeAtTheSizeAskedFor() throws {
        let gif = try open("frames.gif")
        let frame = try #require(try gif.nextFrame(covering: (32, 24)))
        #expect(frame.image.width == 32 && frame.image.height == 24)
        let full = try #require(try gif.nextFrame(covering: (640, 480)))
        #expect(full.image.width == 64, "never enlarged")
    }

    /// Cut short after its first frames: it plays what is there and says so; its first frame cut
    /// shows what was decoded.
    @Test func aGIFCutShortPlaysUpToTheCut() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.fixture("frames.gif"))
        let cut = Array(whole.prefix(whole.count - 200))
        let gif = try #require(try AnimatedImage.open(data: cut))
        let all = try frames(gif)
        #expect(all.count >= 2 && all.count < 4, "\(all.count) frames")
        // Past its first data block (255 bytes: a few rows of the first frame).
        let firstCut = try ImageDecoder.decode(data: Array(whole.prefix(1300)))
        #expect(firstCut.problem?.hasPrefix("truncated or damaged GIF") == true, "\(firstCut.problem ?? "")")
        #expect(firstCut.image.rgba(x: 10, y: 2) == red, "its first rows shown")
    }
}
