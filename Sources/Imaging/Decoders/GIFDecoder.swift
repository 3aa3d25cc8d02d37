import CGIF
import Pixels

/// GIF through giflib, read as a stream: one frame at a time composed on the canvas (its disposal
/// and transparency honoured), never the whole file's frames at once. A still decode is the first
/// frame, and says whether a second follows (the grid's badge).
enum GIFDecoder {
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        let gif = try GIFAnimation(request.data, still: true)
        guard let first = try gif.nextFrame() else { throw .corrupt(format: "GIF", detail: "no image in it") }
        return DecoderOutput(image: first.image, fullSize: gif.size, problem: gif.problem, isAnimated: gif.hasAnotherFrame())
    }

    static func animation(_ data: [UInt8]) throws(ImageDecodeError) -> any AnimationSource { try GIFAnimation(data) }

    /// A second image follows the first within these bytes (walked block by block, nothing decoded).
    static func moves(_ head: ArraySlice<UInt8>) -> Bool {
        let b = Array(head)
        guard b.count >= 13 else { return false }
        var i = 13 + (b[10] & 0x80 != 0 ? 3 << (Int(b[10] & 7) + 1) : 0)
        var images = 0
        /// Past a run of sub-blocks starting at `i`; nil when the bytes end first.
        func skipSubBlocks() -> Bool {
            while i < b.count {
                let length = Int(b[i])
                i += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        while i < b.count {
            switch b[i] {
            case 0x21:   // extension: its label, then sub-blocks
                i += 2
                guard skipSubBlocks() else { return false }
            case 0x2C:   // image: a descriptor, a local colour table, the LZW code size, sub-blocks
                images += 1
                if images == 2 { return true }
                guard i + 10 <= b.count else { return false }
                let flags = b[i + 9]
                i += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                guard skipSubBlocks() else { return false }
            default:
                return false   // the trailer, or damage
            }
        }
        return false
    }
}

/// A GIF's frames, decoded one after the other through giflib's low-level reader.
final class GIFAnimation: AnimationSource {
    /// Frames played a loop at most: a file of a million one-pixel frames plays its first ones.
    static let maxFrames = 20_000

    private let data: [UInt8]
    private var file: UnsafeMutablePointer<GifFileType>
    /// Where giflib reads next in `data` (giflib's input function reads it through `UserData`).
    private let position: UnsafeMutablePointer<Int>
    private let canvas: FrameCanvas
    let size: (width: Int, height: Int)
    /// As browsers count it: no NETSCAPE block plays once, a count of n repeats n times more, 0 loops for ever.
    private(set) var loopCount = 1
    /// A frame damaged partway: it ends the animation (and the first frame says so).
    private(set) var problem: String?
    private var framesRead = 0
    /// The Graphics Control Extension that applies to the next image.
    private var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)

    /// `still`: only the first frame will be read, so the canvas may be as large as any picture; an
    /// animation's is held with its frames ahead, and keeps the animation limit.
    init(_ data: [UInt8], still: Bool = false) throws(ImageDecodeError) {
        self.data = data
        position = .allocate(capacity: 1)
        position.pointee = 0
        do throws(ImageDecodeError) {
            file = try Self.open(data, position)
        } catch {
            position.deallocate()
            throw error
        }
        size = (Int(file.pointee.SWidth), Int(file.pointee.SHeight))
        do throws(ImageDecodeError) {
            if still {
                try ImageLimits.check(width: size.width, height: size.height)
            } else {
                try ImageLimits.checkAnimation(width: size.width, height: size.height)
            }
        } catch {
            Source.release(file)
            DGifCloseFile(file, nil)
            position.deallocate()
            throw error
        }
        canvas = FrameCanvas(width: size.width, height: size.height)
    }

    deinit {
        Source.release(file)
        DGifCloseFile(file, nil)
        position.deallocate()
    }

    private static func open(_ data: [UInt8], _ position: UnsafeMutablePointer<Int>) throws(ImageDecodeError) -> UnsafeMutablePointer<GifFileType> {
        var status: Int32 = 0
        // Held for as long as the file is open (`Source.release` lets it go).
        let source = Unmanaged.passRetained(Source(data: data, position: position))
        guard let file = DGifOpen(source.toOpaque(), { file, buffer, count in
            guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
            let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
            return source.read(into: buffer, count: Int(count))
        }, &status) else {
            source.release()
            throw .corrupt(format: "GIF", detail: GifErrorString(status).map { String(cString: $0) } ?? "it can't be opened")
        }
        return file
    }

    /// Where giflib's input function reads from: the bytes, and the offset shared with the animation.
    private final class Source {
        let data: [UInt8]
        let position: UnsafeMutablePointer<Int>
        init(data: [UInt8], position: UnsafeMutablePointer<Int>) { self.data = data; self.position = position }

        func read(into buffer: UnsafeMutablePointer<GifByteType>, count: Int) -> Int32 {
            let n = max(0, min(count, data.count - position.pointee))
            data.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + position.pointee, count: n) }
            position.pointee += n
            return Int32(n)
        }

        /// Lets the source of an open file go, before the file is closed.
        static func release(_ file: UnsafeMutablePointer<GifFileType>) {
            if let user = file.pointee.UserData { Unmanaged<Source>.fromOpaque(user).release() }
        }
    }

    func nextFrame() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        guard framesRead < Self.maxFrames, problem == nil || framesRead == 0 else { return nil }
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else { return try ended() }
            switch record {
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageHeader(file) == GIF_OK else { return try ended() }
                return try readImage()
            default:
                return nil   // the trailer
            }
        }
    }

    /// Whether another image follows, read up to its descriptor (the caller is done with this reader).
    func hasAnotherFrame() -> Bool {
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else { return false }
            if record == IMAGE_DESC_RECORD_TYPE { return true }
            guard record == EXTENSION_RECORD_TYPE, (try? readExtension()) != nil else { return false }
        }
    }

    func rewind() throws(ImageDecodeError) {
        Source.release(file)
        DGifCloseFile(file, nil)
        position.pointee = 0
        file = try Self.open(data, position)
        canvas.reset()
        framesRead = 0
        control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
    }

    /// A read failed: a damaged first frame is an error, a later one ends the animation there.
    private func ended() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        let message = GifErrorString(file.pointee.Error).map { String(cString: $0) } ?? "damaged data"
        if framesRead == 0 { throw .corrupt(format: "GIF", detail: message) }
        problem = "damaged GIF (\(message)); it plays up to the damage"
        return nil
    }

    private func readExtension() throws(ImageDecodeError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &code, &block) == GIF_OK else { throw .corrupt(format: "GIF", detail: "a damaged extension") }
        var isNetscape = false
        var first = true
        while let b = block {
            let length = Int(b[0])
            if code == GRAPHICS_EXT_FUNC_CODE, first {
                _ = DGifExtensionToGCB(length, b + 1, &control)
            } else if code == APPLICATION_EXT_FUNC_CODE, first {
                let name = String(decoding: UnsafeBufferPointer(start: b + 1, count: length), as: UTF8.self)
                isNetscape = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
            } else if isNetscape, length >= 3, b[1] == 1 {
                let count = Int(b[2]) | Int(b[3]) << 8
                loopCount = count == 0 ? 0 : count + 1
            }
            first = false
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw .corrupt(format: "GIF", detail: "a damaged extension") }
        }
    }

    /// The image whose descriptor was just read, drawn on the canvas; the canvas as it then shows.
    private func readImage() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        let desc = file.pointee.Image
        let (w, h) = (Int(desc.Width), Int(desc.Height))
        guard w > 0, h > 0, w <= ImageLimits.maxSide, h <= ImageLimits.maxSide,
              let map = desc.ColorMap ?? file.pointee.SColorMap else {
            return try corrupted("a frame without colours or with an impossible size")
        }
        // Checked before its pixels are allocated: a 35-byte file can claim a 32767×32767 frame on a 1×1 screen.
        guard Int(desc.Left) >= 0, Int(desc.Top) >= 0, Int(desc.Left) + w <= size.width, Int(desc.Top) + h <= size.height else {
            return try corrupted("a frame of \(w)×\(h) px at (\(desc.Left), \(desc.Top)) outside its \(size.width)×\(size.height) screen")
        }
        let colours = (0..<Int(map.pointee.ColorCount)).map { i -> UInt32 in
            let c = map.pointee.Colors[i]
            return 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
        }
        let transparent = Int(control.TransparentColor)
        var pixels = [UInt32](repeating: 0, count: w * h)
        var line = [GifPixelType](repeating: 0, count: w)
        var damaged = false
        for y in rowOrder(height: h, interlaced: desc.Interlace) {
            guard DGifGetLine(file, &line, Int32(w)) == GIF_OK else { damaged = true; break }
            for x in 0..<w {
                let index = Int(line[x])
                pixels[y * w + x] = index == transparent || index >= colours.count ? 0 : colours[index]
            }
        }
        if damaged {
            guard framesRead == 0 else { return try ended() }
            problem = "truncated or damaged GIF (\(GifErrorString(file.pointee.Error).map { String(cString: $0) } ?? "damaged data")); showing what was decoded"
        }
        let disposal: FrameCanvas.Disposal = switch control.DisposalMode {
        case DISPOSE_BACKGROUND: .clear
        case DISPOSE_PREVIOUS: .restore
        default: .keep
        }
        pixels.withUnsafeBufferPointer { p in
            canvas.draw(p.baseAddress!, at: FrameCanvas.Area(x: Int(desc.Left), y: Int(desc.Top), width: w, height: h),
                        blend: .over, then: disposal)
        }
        let delay = Double(control.DelayTime) / 100
        control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        framesRead += 1
        return (canvas.snapshot(), delay)
    }

    private func corrupted(_ detail: String) throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        if framesRead == 0 { throw .corrupt(format: "GIF", detail: detail) }
        problem = "damaged GIF (\(detail)); it plays up to the damage"
        return nil
    }

    /// The rows in the order the file gives them: top to bottom, or an interlaced image's four passes.
    private func rowOrder(height h: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<h) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: h, by: step)) }
    }
}
