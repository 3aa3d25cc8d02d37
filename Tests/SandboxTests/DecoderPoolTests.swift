import Foundation
import Glibc
import Imaging
import Pixels
import Sandbox
import SystemPackage
import Testing
import TestSupport

/// The pool of decoder processes, as the viewer uses it: the built `photozoom` in its decoder mode.
@Suite(.serialized) struct DecoderPoolTests {
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("photozoom").path
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    /// A picture from a decoder is the one this process would decode: every format, sized and whole.
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "orientation6.jpg", "rgba8.png", "frames.gif", "alpha.webp",
                      "quadrants.heic", "quadrants.avif", "quadrants.jxl", "quadrants.tif", "quadrants.svg",
                      "text.svg", "preview-orientation6.dng", "red-adobergb.jpg", "thumbnail-item.heic"])
    func decodesAsThisProcessDoes(name: String) throws {
        let pool = DecoderPool(executable: Self.executable, size: 1)
        let file = FilePath(Self.fixtures + "/" + name)
        for atLeast in [nil, (width: 40, height: 40), (width: 400, height: 300)] as [(width: Int, height: Int)?] {
            let there = try pool.decode(file: file, atLeast: atLeast, colour: .sRGB)
            let here = try ImageDecoder.decodeHere(data: PhotoFile.read(file), atLeast: atLeast)
            #expect(!pool.decodesInProcess)
            #expect((there.image.width, there.image.height) == (here.image.width, here.image.height), "\(name)")
            #expect(there.fullSize == here.fullSize && there.format == here.format && there.isAnimated == here.isAnimated)
            let same = there.image.hasTheSamePixels(as: here.image)
            #expect(same, "\(name) at \(String(describing: atLeast)): the pixels differ")
        }
    }

    /// A phone's tiled HEIC is decoded in a decoder as here: its tiles by FFmpeg on libheif's threads (which the
    /// confinement lets start), whole and shrunk.
    @Test func aPhonesTiledHEICDecodesInADecoderAsHere() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("quadrants.png", PNGWriter.encode(CameraJPEG.quadrants(width: 400, height: 300))!)
        let file = folder.path + "/IMG_0001.HEIC"
        try PhoneHEIC.make(from: source, to: file, layout: PhoneHEIC.Layout(width: 1600, height: 1200))
        let pool = DecoderPool(executable: Self.executable, size: 1)
        for atLeast in [nil, (width: 400, height: 300)] as [(width: Int, height: Int)?] {
            let there = try pool.decode(file: FilePath(file), atLeast: atLeast, colour: .sRGB)
            let here = try ImageDecoder.decodeHere(data: PhotoFile.read(FilePath(file)), atLeast: atLeast)
            #expect(!pool.decodesInProcess && there.format == .heic)
            #expect((there.image.width, there.image.height) == (here.image.width, here.image.height), "\(String(describing: atLeast))")
            let same = there.image.hasTheSamePixels(as: here.image)
            #expect(same, "at \(String(describing: atLeast)): the pixels differ")
        }
    }

    /// The picture a camera keeps beside the photo comes from a decoder: a JPEG's EXIF thumbnail and a HEIC's
    /// thumbnail item, each as this process reads it.
    @Test func embeddedThumbnailsComeFromADecoder() throws {
        let folder = try TemporaryFolder()
        let jpeg = try folder.write("IMG_0001.JPG", CameraJPEG.bytes(photo: TestImages.solid(width: 1600, height: 1200, argb: 0xFF80_8080),
                                                                    thumbnail: CameraJPEG.quadrants(width: 160, height: 120)))
        let pool = DecoderPool(executable: Self.executable, size: 1)
        for (file, size) in [(jpeg, (160, 120)), (Self.fixtures + "/thumbnail-item.heic", (320, 240))] {
            let there = try #require(pool.embeddedThumbnail(file: FilePath(file), colour: .sRGB), "\(file)")
            let fd = try PhotoFile.open(FilePath(file))
            defer { close(fd) }
            let here = try #require(EmbeddedThumbnail.read(fd: fd))
            #expect(!pool.decodesInProcess)
            #expect((there.width, there.height) == size && (here.width, here.height) == size, "\(file)")
        }
    }

    /// Every decoder is confined (seccomp filter mode, no new privileges) and holds nothing of the
    /// viewer's: its socket, /dev/null on the standard descriptors, and its pictures' memory files.
    @Test func decodersAreConfined() throws {
        let pool = DecoderPool(executable: Self.executable, size: 2)
        for _ in 0..<4 { _ = try pool.decode(file: FilePath(Self.fixtures + "/baseline.jpg"), atLeast: (16, 16), colour: .sRGB) }
        #expect(pool.processIDs.count == 2)
        for pid in pool.processIDs {
            // A decoder the requests did not reach may still be starting (on a loaded machine): it is given no
            // request before it says it is confined, and it says so within moments.
            var status = ""
            for _ in 0..<300 {
                status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
                if status.contains("\nSeccomp:\t2\n") { break }
                usleep(100_000)
            }
            #expect(status.contains("\nSeccomp:\t2\n"), "\(pid): \(status)")
            #expect(status.contains("\nNoNewPrivs:\t1\n"), "\(pid)")
            let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
            let targets = fds.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?" }
            // A picture's memory file may still be open for a moment after its answer is sent.
            #expect(Array(fds.prefix(4)) == ["0", "1", "2", "3"], "\(targets)")
            #expect(targets.prefix(3).allSatisfy { $0 == "/dev/null" } && targets[3].hasPrefix("socket:"), "\(targets)")
            #expect(targets.dropFirst(4).allSatisfy { $0.hasPrefix("/memfd:photozoom-pixels") }, "\(targets)")
        }
    }

    /// Decoders start with the program's own libraries: a folder of JPEGs, PNGs, GIFs, WebPs and TIFFs never
    /// maps libheif, libjxl or librsvg. The first HEIC goes to a decoder that opened libheif, in place of a light one;
    /// a JPEG XL and an SVG after it, to one that opened those too; the pool keeps its size.
    @Test func librariesOpenedOnDemandAreMappedOnlyOnceTheirFormatIsMet() throws {
        let pool = DecoderPool(executable: Self.executable, size: 2)
        func libraries(_ pid: pid_t) throws -> Set<String> {
            // Read to its end: a /proc file says it is empty, and a read of its size would stop at a page.
            let maps = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() ?? Data(), as: UTF8.self)
            return Set(["libheif", "libavcodec", "libjxl", "librsvg"].filter { maps.contains("/\($0)") })
        }
        for name in ["baseline.jpg", "rgba8.png", "frames.gif", "alpha.webp", "quadrants.tif", "baseline.jpg"] {
            _ = try pool.decode(file: FilePath(Self.fixtures + "/" + name), atLeast: (16, 16), colour: .sRGB)
        }
        let light = pool.processIDs
        #expect(light.count == 2)
        for pid in light { #expect(try libraries(pid).isEmpty, "decoder \(pid)") }
        func decode(_ name: String) throws {
            let decoded = try pool.decode(file: FilePath(Self.fixtures + "/" + name), atLeast: (16, 16), colour: .sRGB)
            #expect(decoded.image.width >= 16 && decoded.format.opensLibraryOnDemand, "\(name): \(decoded.image.width) px wide")
        }
        // A HEIC's decoder opens libheif, and libavcodec for its HEVC pictures (which maps libjxl and librsvg with
        // the rest of FFmpeg's codecs, never called); the decoders that met no HEIC stay light.
        try decode("quadrants.heic")
        let withHEIF = pool.processIDs.subtracting(light)
        #expect(withHEIF.count == 1)
        for pid in withHEIF {
            let mapped = try libraries(pid)
            #expect(mapped.contains("libheif") && mapped.contains("libavcodec"), "decoder \(pid): \(mapped)")
        }
        for pid in pool.processIDs.intersection(light) { #expect(try libraries(pid).isEmpty, "decoder \(pid)") }
        try decode("quadrants.jxl")
        try decode("quadrants.svg")
        let heavier = pool.processIDs.subtracting(light)
        #expect(pool.processIDs.count == 2 && !heavier.isEmpty && !pool.decodesInProcess)
        for pid in heavier {
            let mapped = try libraries(pid)
            #expect(mapped.isSuperset(of: ["libheif", "libjxl", "librsvg"]), "decoder \(pid): \(mapped)")
        }
    }

    /// A library whose first screen holds HEICs has its decoders open libheif ahead of any request, while the
    /// window opens: the first HEIC goes to a decoder already started with it, not to one started for it.
    @Test func decodersAreReadiedForTheFormatsExpected() throws {
        let pool = DecoderPool(executable: Self.executable, size: 2)
        pool.expect([.jpeg, .heic])
        let readied = pool.processIDs
        #expect(readied.count == 2)
        for pid in readied {
            var maps = ""
            for _ in 0..<300 where !maps.contains("/libheif") {
                maps = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() ?? Data(),
                              as: UTF8.self)
                usleep(20_000)
            }
            #expect(maps.contains("/libheif"), "decoder \(pid)")
        }
        _ = try pool.decode(file: FilePath(Self.fixtures + "/quadrants.heic"), atLeast: (16, 16), colour: .sRGB)
        #expect(pool.processIDs == readied && !pool.decodesInProcess, "no decoder started for the HEIC")
        pool.expect([.heic])
        #expect(pool.processIDs == readied, "expected again: nothing to do")
    }

    /// What a library taken over by a file would try next: each comes back refused, or kills its decoder
    /// (SIGSYS), which is replaced.
    @Test func escapesAreRefusedOrKilled() throws {
        let pool = DecoderPool(executable: Self.executable, size: 1)
        #expect(pool.tryEscape("open") == .unreadable("open refused: permission denied"))
        #expect(pool.tryEscape("socket") == .decoderCrashed(format: "image", signal: SIGSYS))
        #expect(pool.tryEscape("exec") == .decoderCrashed(format: "image", signal: SIGSYS))
        let after = try pool.decode(file: FilePath(Self.fixtures + "/baseline.jpg"), atLeast: nil, colour: .sRGB)
        #expect(after.image.width > 0 && !pool.decodesInProcess)
        #expect(pool.processIDs.count == 1)
    }

    /// A decoder that draws SVGs reads the fonts their text asks for (the text is drawn as in this process: the
    /// test above) and nothing else: a file outside the fonts' folders, or one made beneath them, is refused.
    @Test func aDecoderThatDrawsSVGsReadsFontsAndNothingElse() throws {
        let pool = DecoderPool(executable: Self.executable, size: 1)
        let text = try pool.decode(file: FilePath(Self.fixtures + "/text.svg"), atLeast: nil, colour: .sRGB)
        #expect(text.format == .svg && !pool.decodesInProcess)
        #expect(pool.tryEscape("open") == .unreadable("open refused: permission denied"))
        #expect(pool.tryEscape("create") == .unreadable("create refused: permission denied"))
        #expect(pool.tryEscape("socket") == .decoderCrashed(format: "image", signal: SIGSYS))
        #expect(!FileManager.default.fileExists(atPath: "/usr/share/fonts/photozoom-escape"))
    }

    /// A decoder stopped (SIGSTOP) times out and one killed mid-request (SIGKILL) crashes: each costs its
    /// photo, one line of reason, and the next photo decodes on a new decoder.
    @Test func aStoppedOrKilledDecoderCostsOnePhoto() throws {
        let pool = DecoderPool(executable: Self.executable, size: 1, baseSeconds: 1)
        let file = FilePath(Self.fixtures + "/quadrants.heic")
        _ = try pool.decode(file: file, atLeast: (8, 8), colour: .sRGB)
        let first = try #require(pool.processIDs.first)
        kill(first, SIGSTOP)
        #expect(throws: ImageDecodeError.decoderTimedOut(seconds: 1)) { try pool.decode(file: file, atLeast: (8, 8), colour: .sRGB) }
        #expect(try pool.decode(file: file, atLeast: (8, 8), colour: .sRGB).image.width > 0)

        // The request waits in the stopped decoder's socket when it is killed.
        let second = try #require(pool.processIDs.first)
        #expect(second != first)
        kill(second, SIGSTOP)
        let killer = Thread { usleep(300_000); kill(second, SIGKILL) }
        killer.start()
        #expect(throws: ImageDecodeError.decoderCrashed(format: "HEIC", signal: SIGKILL)) {
            try pool.decode(file: file, atLeast: (8, 8), colour: .sRGB)
        }
        #expect(try pool.decode(file: file, atLeast: (8, 8), colour: .sRGB).image.width > 0)
        let third = try #require(pool.processIDs.first)
        #expect(pool.processIDs.count == 1 && ![first, second].contains(third) && kill(third, 0) == 0, "the pool is full again")
    }

    /// Where no decoder can start, the pool says so and decodes in this process: the photo still shows.
    @Test func withoutDecodersItDecodesHere() throws {
        let pool = DecoderPool(executable: "/nonexistent/photozoom", size: 1)
        let decoded = try pool.decode(file: FilePath(Self.fixtures + "/baseline.jpg"), atLeast: nil, colour: .sRGB)
        #expect(decoded.image.width > 0 && pool.decodesInProcess)
    }
}

/// Clips in a decoder: FFmpeg opened before the confinement, the clip read from its descriptor where it lies.
@Suite(.serialized, .enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed (apt-get install ffmpeg libimage-exiftool-perl)"))
struct ClipDecoderPoolTests {
    @Test func aClipsPosterFromADecoderIsTheOneThisProcessDecodes() throws {
        let folder = try TemporaryFolder()
        let clips = try TestClips.make([.tone, .upright, .webm, .cut], in: folder)
        let pool = DecoderPool(executable: DecoderPoolTests.executable, size: 1)
        for (kind, path) in clips {
            for atLeast in [nil, (width: 40, height: 40)] as [(width: Int, height: Int)?] {
                let there = try pool.decode(file: FilePath(path), atLeast: atLeast, colour: .sRGB)
                let fd = try PhotoFile.open(FilePath(path))
                defer { close(fd) }
                let here = try ImageDecoder.decodeHere(fd: fd, atLeast: atLeast)
                #expect(!pool.decodesInProcess, "\(kind)")
                #expect(there.clip == here.clip && there.clip != nil && there.format == here.format, "\(kind)")
                #expect((there.image.width, there.image.height) == (here.image.width, here.image.height), "\(kind)")
                let same = there.image.hasTheSamePixels(as: here.image)
                #expect(same, "\(kind) at \(String(describing: atLeast)): the pixels differ")
            }
        }
    }

    /// A clip's sound, and a Motion Photo's movie inside its JPEG, in decoders of their own: its pictures and its tone
    /// come from where they lie, and a seek goes where it is asked.
    @Test func aMotionPhotosMovieAndAClipsSoundPlayFromDecoders() throws {
        let folder = try TemporaryFolder()
        let made = try TestClips.make([.motionPhoto, .tone], in: folder)
        let pool = DecoderPool(executable: DecoderPoolTests.executable, size: 1)
        let still = FilePath(try #require(made[.motionPhoto]))
        let movie = try #require(try pool.decode(file: still, atLeast: nil, colour: .sRGB).motion, "the decoder finds its movie")
        let frames = try #require(try pool.openAnimation(file: still, colour: .sRGB, movie: movie))
        let first = try #require(try frames.nextFrame(covering: nil))
        #expect(TestClips.frameNumber(shownAs: first.image.pixel(x: 160, y: 120)) == 0 && first.time == 0)
        try frames.seek(to: 1.0)
        let later = try #require(try frames.nextFrame(covering: nil))
        #expect(TestClips.frameNumber(shownAs: later.image.pixel(x: 160, y: 120)) == 30 && abs(later.time - 1) < 0.01, "\(later.time)")
        let tone = try #require(made[.tone])
        let sound = try #require(try pool.openSound(file: FilePath(tone), movie: nil))
        let piece = try #require(try sound.nextPiece(atLeast: 0.5))
        let rms = (piece.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(piece.samples.count)).squareRoot()
        #expect(piece.duration >= 0.5 && piece.seconds < 0.05 && rms > 1000, "the tone: \(piece.duration) s at \(piece.seconds), rms \(rms)")
        try sound.seek(to: 1.5)
        let end = try #require(try sound.nextPiece(atLeast: 1))
        #expect(abs(end.seconds - 1.5) < 0.03 && end.duration < 0.6, "from 1.5 s to its end: \(end.seconds) s, \(end.duration) s")
        #expect(!pool.decodesInProcess)
    }
}

extension PixelImage {
    /// Whether `other` is this picture, byte for byte (their strides aside).
    func hasTheSamePixels(as other: PixelImage) -> Bool {
        width == other.width && height == other.height && (0..<height).allSatisfy { y in
            memcmp(bytes + y * stride, other.bytes + y * other.stride, width * 4) == 0
        }
    }
}
