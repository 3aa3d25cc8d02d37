import CGIF
import CImageQuant
import Glibc
import Pixels

/// Animated GIF through giflib. Each frame stores only the rectangle that changed since the frame
/// before, with its own 256-colour palette from libimagequant (dithered, so gradients and skies
/// stay smooth). Frame delays are whole hundredths of a second, and browsers slow anything under
/// two to a tenth of a second, so frames closer than that are merged (the later picture wins), and
/// a frame that repeats the one before only lengthens it.
public final class GIFAnimationEncoder: AnimationEncoder {
    /// The shortest delay browsers honour, in hundredths of a second.
    static let shortestDelay = 2

    private let width: Int, height: Int
    /// libimagequant's speed (1 best … 10 fastest; 4 is its default).
    private let quantizerSpeed: Int32
    private let file = GIFStream()
    /// The frame waiting for the next one's time, which sets its delay.
    private var pending: (frame: PixelImage, centiseconds: Int)?
    /// What the GIF shows after the frames written so far.
    private var shown: PixelImage?
    private var failure: RecordingError?

    public init(width: Int, height: Int, quantizerSpeed: Int32 = 4) {
        self.width = width
        self.height = height
        self.quantizerSpeed = quantizerSpeed
    }

    public func add(_ frame: PixelImage, at time: Double) throws(RecordingError) {
        precondition(frame.width == width && frame.height == height, "a frame of another size")
        let centiseconds = Int((time * 100).rounded())
        if let pending {
            // The same picture again: the one waiting just shows longer.
            if Self.changedRect(from: pending.frame, to: frame) == nil { return }
            if centiseconds - pending.centiseconds < Self.shortestDelay {
                self.pending = (frame, pending.centiseconds)
                return
            }
            try write(pending.frame, delay: centiseconds - pending.centiseconds)
        }
        pending = (frame, centiseconds)
    }

    public func finish(at end: Double) throws(RecordingError) -> RecordedAnimation {
        if let pending {
            try write(pending.frame, delay: max(Self.shortestDelay, Int((end * 100).rounded()) - pending.centiseconds))
        }
        pending = nil
        if shown == nil { throw RecordingError("no frame was recorded") }
        return .file(try file.close())
    }

    private func write(_ frame: PixelImage, delay: Int) throws(RecordingError) {
        if shown == nil { try file.open(width: width, height: height) }
        // A frame merged back into the picture shown still gets a 1×1 patch: its delay must be written.
        let rect = shown.map { Self.changedRect(from: $0, to: frame) ?? (0, 0, 1, 1) } ?? (0, 0, width, height)
        let (indices, palette) = try Self.quantize(frame, rect, speed: quantizerSpeed)
        try file.putFrame(indices: indices, palette: palette, rect: rect, delay: min(delay, 65535))
        shown = frame
    }

    /// The smallest rectangle holding every pixel that differs, or nil.
    static func changedRect(from a: PixelImage, to b: PixelImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<b.height {
            let rowA = a.bytes.advanced(by: y * a.stride).assumingMemoryBound(to: UInt32.self)
            let rowB = b.bytes.advanced(by: y * b.stride).assumingMemoryBound(to: UInt32.self)
            if memcmp(rowA, rowB, b.width * 4) == 0 { continue }
            var first = 0
            while rowA[first] == rowB[first] { first += 1 }
            var last = b.width - 1
            while rowA[last] == rowB[last] { last -= 1 }
            minX = min(minX, first); maxX = max(maxX, last)
            minY = min(minY, y); maxY = y
        }
        return maxY < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// The rectangle's pixels as palette indices, and the palette (RGB, padded to a power of two).
    private static func quantize(_ frame: PixelImage, _ rect: (x: Int, y: Int, width: Int, height: Int), speed: Int32)
        throws(RecordingError) -> ([UInt8], [GifColorType]) {
        var rgba = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        for y in 0..<rect.height {
            let row = frame.bytes.advanced(by: (rect.y + y) * frame.stride + rect.x * 4).assumingMemoryBound(to: UInt32.self)
            for x in 0..<rect.width {
                let p = row[x], o = (y * rect.width + x) * 4
                rgba[o] = UInt8(p >> 16 & 0xFF); rgba[o + 1] = UInt8(p >> 8 & 0xFF); rgba[o + 2] = UInt8(p & 0xFF); rgba[o + 3] = 0xFF
            }
        }
        guard let attributes = liq_attr_create() else { throw RecordingError("libimagequant could not start") }
        defer { liq_attr_destroy(attributes) }
        liq_set_speed(attributes, speed)
        var indices = [UInt8](repeating: 0, count: rect.width * rect.height)
        var colors: [GifColorType] = []
        let status: liq_error = rgba.withUnsafeBytes { pixels in
            guard let image = liq_image_create_rgba(attributes, pixels.baseAddress!, Int32(rect.width), Int32(rect.height), 0) else {
                return LIQ_OUT_OF_MEMORY
            }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            let quantized = liq_image_quantize(image, attributes, &result)
            guard quantized == LIQ_OK, let result else { return quantized }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, 1)
            let written = indices.withUnsafeMutableBytes { liq_write_remapped_image(result, image, $0.baseAddress!, $0.count) }
            guard written == LIQ_OK else { return written }
            let palette = liq_get_palette(result)!.pointee
            colors = withUnsafeBytes(of: palette.entries) { raw in
                raw.bindMemory(to: liq_color.self).prefix(Int(palette.count)).map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
            }
            return LIQ_OK
        }
        guard status == LIQ_OK else { throw RecordingError("libimagequant could not reduce a frame to 256 colours (error \(status.rawValue))") }
        var size = 2
        while size < colors.count { size *= 2 }
        colors += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colors.count)
        return (indices, colors)
    }
}

/// giflib writing into memory, with its error codes turned into `RecordingError`.
private final class GIFStream {
    private final class Sink { var bytes: [UInt8] = [] }
    private let sink = Sink()
    private var gif: UnsafeMutablePointer<GifFileType>?

    /// A recording abandoned half-way still frees giflib's state.
    deinit { if gif != nil { EGifCloseFile(gif, nil) } }

    func open(width: Int, height: Int) throws(RecordingError) {
        var error: Int32 = 0
        gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(gif!.pointee.UserData).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }, &error)
        guard let gif else { throw Self.failure(error, "starting") }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil), "writing the header")
        // NETSCAPE2.0 with a loop count of 0: play forever.
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "writing the loop")
        try check(Array("NETSCAPE2.0".utf8).withUnsafeBytes { EGifPutExtensionBlock(gif, 11, $0.baseAddress) }, "writing the loop")
        try check([UInt8]([1, 0, 0]).withUnsafeBytes { EGifPutExtensionBlock(gif, 3, $0.baseAddress) }, "writing the loop")
        try check(EGifPutExtensionTrailer(gif), "writing the loop")
    }

    func putFrame(indices: [UInt8], palette: [GifColorType], rect: (x: Int, y: Int, width: Int, height: Int), delay: Int)
        throws(RecordingError) {
        guard let gif else { return }
        var control = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay),
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        _ = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extensionBytes), "writing a frame's delay")
        let map = palette.withUnsafeBufferPointer { GifMakeMapObject(Int32($0.count), $0.baseAddress) }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, map),
                  "writing a frame")
        var rows = indices
        for y in 0..<rect.height {
            try check(rows.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress! + y * rect.width, Int32(rect.width)) },
                      "writing a frame")
        }
    }

    func close() throws(RecordingError) -> [UInt8] {
        var error: Int32 = 0
        let closed = EGifCloseFile(gif, &error)
        gif = nil
        guard closed == GIF_OK else { throw Self.failure(error, "finishing") }
        return sink.bytes
    }

    private func check(_ status: Int32, _ doing: String) throws(RecordingError) {
        guard status == GIF_OK else { throw Self.failure(gif?.pointee.Error ?? 0, doing) }
    }

    private static func failure(_ code: Int32, _ doing: String) -> RecordingError {
        RecordingError("giflib failed \(doing) the GIF: \(GifErrorString(code).map { String(cString: $0) } ?? "error \(code)")")
    }
}
