import CPNG
import Pixels

/// Animated PNG. Debian's libpng has no APNG support, so each frame is handed to it as a PNG of its
/// own: the file's header (the frame's size), its palette and colour chunks, and the frame's data
/// chunks as IDAT. The frames are then composed on the canvas as their fcTL says. A still decode
/// is the file's default image, as a plain PNG reader shows it.
enum APNGDecoder {
    /// A PNG with an animation control chunk (acTL) before its image data.
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        PNGDecoder.matches(head) && PNGChunks(head).contains { $0.type == "acTL" }
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        var output = try PNGDecoder.decode(request)
        do throws(ImageDecodeError) {
            output.isAnimated = try APNGAnimation(request.data).frames.count > 1
        } catch {
            // Frames that can't play (one outside the canvas, say): the default image is shown, and the damage said.
            output.problem = output.problem ?? "\(error); it is shown still"
        }
        return output
    }

    static func animation(_ data: [UInt8]) throws(ImageDecodeError) -> any AnimationSource { try APNGAnimation(data) }

    /// Its acTL counts more than one frame.
    static func moves(_ head: ArraySlice<UInt8>) -> Bool {
        guard let actl = PNGChunks(head).first(where: { $0.type == "acTL" }), actl.payload.count == 8 else { return false }
        let frames = head[actl.payload.lowerBound..<(actl.payload.lowerBound + 4)].reduce(0) { $0 << 8 | Int($1) }
        return frames > 1
    }
}

/// An APNG's frames, each decoded by libpng when it is due.
final class APNGAnimation: AnimationSource {
    struct Frame {
        let area: FrameCanvas.Area
        let delay: Double
        let disposal: FrameCanvas.Disposal
        let blend: FrameCanvas.Blend
        /// Its image data: payloads of IDAT chunks, or of fdAT chunks past their sequence number.
        var data: [Range<Int>] = []
    }

    private let bytes: [UInt8]
    let frames: [Frame]
    let size: (width: Int, height: Int)
    let loopCount: Int
    /// The chunks every frame's PNG carries: the palette, transparency and colour chunks.
    private let shared: [Range<Int>]
    private let header: Range<Int>
    private let canvas: FrameCanvas
    private var next = 0

    init(_ bytes: [UInt8]) throws(ImageDecodeError) {
        self.bytes = bytes
        let (width, height) = try PNGDecoder.headerSize(bytes)
        try ImageLimits.checkAnimation(width: width, height: height)
        size = (width, height)
        var frames: [Frame] = [], shared: [Range<Int>] = [], header: Range<Int>?, plays = 0
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        for chunk in PNGChunks(bytes[...], throughImageData: true) {
            let p = chunk.payload
            switch chunk.type {
            case "IHDR": header = p
            case "acTL" where p.count == 8: plays = u32(p.lowerBound + 4)
            case "fcTL" where p.count == 26:
                let at = p.lowerBound
                let numerator = Int(bytes[at + 20]) << 8 | Int(bytes[at + 21])
                let denominator = Int(bytes[at + 22]) << 8 | Int(bytes[at + 23])
                let dispose = bytes[at + 24], blend = bytes[at + 25]
                frames.append(Frame(area: FrameCanvas.Area(x: u32(at + 12), y: u32(at + 16), width: u32(at + 4), height: u32(at + 8)),
                                    delay: Double(numerator) / Double(denominator == 0 ? 100 : denominator),
                                    // The first frame's "previous" is the empty canvas.
                                    disposal: dispose == 1 || dispose == 2 && frames.isEmpty ? .clear : dispose == 2 ? .restore : .keep,
                                    blend: blend == 1 ? .over : .replace))
            case "IDAT":
                // The default image is the first frame only when an fcTL came before it.
                if !frames.isEmpty { frames[frames.count - 1].data.append(p) }
            case "fdAT" where p.count > 4:
                if !frames.isEmpty { frames[frames.count - 1].data.append((p.lowerBound + 4)..<p.upperBound) }
            case "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "cICP":
                shared.append(p)
            default: break
            }
        }
        guard let header, !frames.isEmpty else { throw .corrupt(format: "APNG", detail: "no frames") }
        // The specification's rule, checked before any frame is decoded: each lies within the canvas.
        if let outside = frames.first(where: { $0.area.x + $0.area.width > width || $0.area.y + $0.area.height > height }) {
            throw .corrupt(format: "APNG", detail: "a frame of \(outside.area.width)×\(outside.area.height) px at "
                           + "(\(outside.area.x), \(outside.area.y)) outside its \(width)×\(height) canvas")
        }
        self.header = header
        self.shared = shared
        self.frames = frames.filter { !$0.data.isEmpty && $0.area.width > 0 && $0.area.height > 0 }
        loopCount = plays
        canvas = FrameCanvas(width: width, height: height)
    }

    func nextFrame() throws(ImageDecodeError) -> (image: PixelImage, delay: Double)? {
        guard next < frames.count else { return nil }
        let frame = frames[next]
        let picture = try PNGDecoder.decodeStored(png(for: frame)).image
        // A frame too large to hold comes back reduced: not a frame of the canvas (found by the fuzzer).
        guard picture.width == frame.area.width, picture.height == frame.area.height else {
            throw .corrupt(format: "APNG", detail: "a frame of \(frame.area.width)×\(frame.area.height) px")
        }
        let words = picture.bytes.assumingMemoryBound(to: UInt32.self)
        canvas.draw(words, at: frame.area, blend: frame.blend, then: frame.disposal)
        next += 1
        return (canvas.snapshot(), frame.delay)
    }

    func rewind() {
        next = 0
        canvas.reset()
    }

    /// The frame as a PNG of its own: the header with the frame's size, the shared chunks, its data as IDAT.
    private func png(for frame: Frame) -> [UInt8] {
        var out = PNGDecoder.signature
        var ihdr = Array(bytes[header])
        for (i, value) in [frame.area.width, frame.area.height].enumerated() {
            ihdr.replaceSubrange((i * 4)..<(i * 4 + 4), with: [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        func chunk(_ type: String, _ payload: ArraySlice<UInt8>) {
            let kind = Array(type.utf8)
            let n = payload.count
            out += [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + kind + payload
            let crc = (kind + payload).withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
            out += [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        chunk("IHDR", ihdr[...])
        for range in shared { chunk(String(decoding: bytes[(range.lowerBound - 4)..<range.lowerBound], as: UTF8.self), bytes[range]) }
        for range in frame.data { chunk("IDAT", bytes[range]) }
        chunk("IEND", [])
        return out
    }
}
