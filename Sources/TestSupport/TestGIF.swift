import CGIF
import Foundation

/// Writes large animated GIFs for the tests, through giflib: frames of a few colours (a band that
/// moves down the picture), which compress well, so that a 4K animation of hundreds of frames is
/// made in seconds.
public enum TestGIF {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A `width`×`height` GIF of `frames` frames, each shown `delay` hundredths of a second, looping for ever.
    public static func write(to path: String, width: Int, height: Int, frames: Int, delay: Int) throws {
        var status: Int32 = 0
        guard let gif = EGifOpenFileName(path, false, &status) else { throw Failure(description: "giflib: cannot write \(path)") }
        var closed = false
        defer { if !closed { EGifCloseFile(gif, nil) } }
        var colours = [GifColorType(Red: 30, Green: 60, Blue: 120), GifColorType(Red: 240, Green: 200, Blue: 40),
                       GifColorType(Red: 200, Green: 40, Blue: 40), GifColorType(Red: 250, Green: 250, Blue: 250)]
        let map = GifMakeMapObject(4, &colours)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 2, 0, map) == GIF_OK else { throw Failure(description: "giflib: screen") }
        var loop: [UInt8] = [1, 0, 0]
        EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE)
        var name = Array("NETSCAPE2.0".utf8)
        EGifPutExtensionBlock(gif, 11, &name)
        EGifPutExtensionBlock(gif, 3, &loop)
        EGifPutExtensionTrailer(gif)
        var row = [GifPixelType](repeating: 0, count: width)
        for frame in 0..<frames {
            var control = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay), TransparentColor: -1)
            var extensionBytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes)
            guard EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil) == GIF_OK else {
                throw Failure(description: "giflib: frame \(frame)")
            }
            let band = (frame * height / max(1, frames)) ... (frame * height / max(1, frames) + height / 10)
            for y in 0..<height {
                let colour: GifPixelType = band.contains(y) ? 1 : (y / 64 + frame) % 4 == 0 ? 2 : 0
                for x in 0..<width { row[x] = x % 256 == 0 ? 3 : colour }
                guard EGifPutLine(gif, &row, Int32(width)) == GIF_OK else { throw Failure(description: "giflib: row \(y)") }
            }
        }
        closed = true
        guard EGifCloseFile(gif, &status) == GIF_OK else { throw Failure(description: "giflib: close") }
    }
}
