import Foundation
import Imaging
import Pixels
import Recording
import Testing
import TestSupport

/// Each encoder's file, read back with the format's own decoder, shows the frames it was given at
/// the times they were given.
@Suite struct AnimationEncoderTests {
    static let width = 96, height = 64

    /// A smooth horizontal gradient (what a palette bands) with a red square that moves 2 px a frame.
    static func frame(_ index: Int) -> PixelImage {
        let image = PixelImage(width: width, height: height, isOpaque: true)
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = (index * 2..<index * 2 + 16).contains(x) && (24..<40).contains(y)
                let g = UInt32(40 + x * 2), b = UInt32(200 - y)
                image.setPixel(x: x, y: y, inSquare ? 0xFFE0_2020 : 0xFF00_0000 | 0x30 << 16 | g << 8 | b)
            }
        }
        return image
    }

    /// 30 frames at 60 fps, 0.5 s in all.
    static func encode(_ format: AnimationFormat, frames: Int = 30, picture: (Int) -> PixelImage = frame) throws -> RecordedAnimation {
        let encoder = try format.makeEncoder(width: width, height: height, fps: 60)
        for i in 0..<frames { try encoder.add(picture(i), at: Double(i) / 60) }
        return try encoder.finish(at: Double(frames) / 60)
    }

    static func bytes(_ animation: RecordedAnimation) throws -> [UInt8] {
        guard case .file(let bytes) = animation else { throw AnimationReadError.notAFile }
        return bytes
    }

    /// The mean difference of the colour channels, 0–255.
    static func meanError(_ a: PixelImage, _ b: PixelImage) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for shift in [0, 8, 16] { total += abs(Int(p >> UInt32(shift) & 0xFF) - Int(q >> UInt32(shift) & 0xFF)) }
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    @Test func webpKeepsEveryFrameAndItsTime() throws {
        let decoded = try AnimationReader.webp(Self.bytes(Self.encode(.webp)))
        #expect(decoded.frames.count == 30)
        #expect((decoded.width, decoded.height) == (Self.width, Self.height))
        for (i, frame) in decoded.frames.enumerated() {
            #expect(abs(frame.time - Double(i) / 60) <= 0.001, "frame \(i) at \(frame.time)")
            #expect(Self.meanError(frame.image, Self.frame(i)) < 4, "frame \(i)")
        }
        #expect(decoded.end == 0.5)
    }

    @Test func gifFramesAreTwoHundredthsApartAtLeastAndTheGradientStaysSmooth() throws {
        let decoded = try AnimationReader.gif(Self.bytes(Self.encode(.gif)))
        // 60 fps (1.67 hundredths) is faster than a GIF plays: a frame within two hundredths of the
        // one before takes its place.
        #expect((15..<30).contains(decoded.frames.count), "\(decoded.frames.map(\.time))")
        for (a, b) in zip(decoded.frames, decoded.frames.dropFirst()) { #expect(b.time - a.time >= 0.0199) }
        #expect(abs((decoded.end ?? 0) - 0.5) < 0.001)
        // Each shown frame is the last picture given before its time; dithering keeps it close.
        for frame in decoded.frames {
            let source = Int((frame.time * 60).rounded(.down))
            let latest = min(29, source + 1)
            let error = min(Self.meanError(frame.image, Self.frame(source)), Self.meanError(frame.image, Self.frame(latest)))
            #expect(error < 3, "at \(frame.time): \(error)")
        }
    }

    @Test func aRepeatedGIFFrameLengthensTheOneBefore() throws {
        let decoded = try AnimationReader.gif(Self.bytes(Self.encode(.gif, frames: 10, picture: { $0 < 5 ? Self.frame(0) : Self.frame(6) })))
        // Two pictures, each shown for five frames.
        #expect(decoded.frames.map(\.time) == [0, 0.08])
        #expect(abs((decoded.end ?? 0) - 10.0 / 60) < 0.011)
        #expect(Self.meanError(decoded.frames[0].image, Self.frame(0)) < 3)
        #expect(Self.meanError(decoded.frames[1].image, Self.frame(6)) < 3)
    }

    @Test func mp4KeepsEveryFrameAndItsTime() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("clip.mp4", Self.bytes(Self.encode(.mp4)))
        let decoded = try AnimationReader.video(path: path)
        #expect(decoded.frames.count == 30, "\(decoded.frames.map(\.time))")
        for (i, frame) in decoded.frames.enumerated() {
            #expect(abs(frame.time - Double(i) / 60) <= 0.001, "frame \(i) at \(frame.time)")
            #expect(Self.meanError(frame.image, Self.frame(i)) < 5, "frame \(i)")
        }
    }

    @Test func pngFramesAreExact() throws {
        guard case .frames(let files) = try Self.encode(.pngFolder) else { throw AnimationReadError.notAFile }
        #expect(files.count == 30)
        for (i, file) in files.enumerated() {
            let image = try ImageDecoder.decode(data: file).image
            #expect(PixelComparison(image, Self.frame(i), channelTolerance: 0).differing == 0)
        }
    }

    /// (MP4 is checked a run at a time, end to end: a second x264 encoder in the same busy process can
    /// choose differently from the first.)
    @Test(arguments: [AnimationFormat.webp, .gif])
    func theSameFramesGiveTheSameBytes(format: AnimationFormat) throws {
        let a = try Self.bytes(Self.encode(format)), b = try Self.bytes(Self.encode(format))
        let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(a == b, "\(a.count) vs \(b.count) bytes, first difference at \(first.map(String.init) ?? "none")")
    }

    @Test func theFormatComesFromTheExtension() {
        #expect(AnimationFormat(path: "run.webp") == .webp)
        #expect(AnimationFormat(path: "out/Run.GIF") == .gif)
        #expect(AnimationFormat(path: "clip.mp4") == .mp4)
        #expect(AnimationFormat(path: "frames") == .pngFolder)
        #expect(AnimationFormat(path: "frames/") == .pngFolder)
        #expect(AnimationFormat(path: "a.gif/") == .pngFolder)
        #expect(AnimationFormat(path: ".hidden") == .pngFolder)
    }

    @Test func recordSizeScalesDownKeepingTheShape() {
        #expect(AnimationFormat.webp.frameSize(width: 1280, height: 800, limit: (640, 640)) == (640, 400))
        #expect(AnimationFormat.webp.frameSize(width: 1280, height: 800, limit: (4000, 4000)) == (1280, 800))   // never up
        #expect(AnimationFormat.webp.frameSize(width: 390, height: 844, limit: nil) == (390, 844))
        // H.264's 4:2:0 needs even sides.
        #expect(AnimationFormat.mp4.frameSize(width: 391, height: 845, limit: nil) == (390, 844))
        #expect(AnimationFormat.mp4.frameSize(width: 1280, height: 800, limit: (333, 1000)) == (332, 208))
    }

    @Test func anEmptyRecordingIsRefusedInWords() throws {
        for format in [AnimationFormat.gif, .mp4] {
            let encoder = try format.makeEncoder(width: 16, height: 16, fps: 30)
            #expect(throws: RecordingError.self) { try encoder.finish(at: 1) }
        }
    }
}

extension AnimationReadError {
    static var notAFile: AnimationReadError { AnimationReadError("the encoder gave frames, not one file") }
}
