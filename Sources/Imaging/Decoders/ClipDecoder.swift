import CAV
import Glibc
import Pixels

/// Clips (MP4, QuickTime, WebM, Matroska) through FFmpeg's libraries, opened on first use: the first picture, as the
/// clip's poster, upright (its display matrix: a phone held upright) at the size asked for, and what the clip says of
/// itself (`ClipFacts`). A clip is read where it lies, from its descriptor: its poster needs its index and its first
/// frame, not the hundreds of MB a phone's clip holds.
enum ClipDecoder {
    /// An ISO media file whose brands are a movie's (HEIF and AVIF, whose rows come first, took theirs).
    static func matchesMP4(_ head: ArraySlice<UInt8>) -> Bool {
        guard let brands = ISOBrands(head) else { return false }
        return brands.major != "qt  " && !audioBrands.contains(brands.major) && !brands.includes(any: ["crx "])
    }

    /// A QuickTime movie: the `qt` brand, or (from before `ftyp`) a first box that is a movie's.
    static func matchesQuickTime(_ head: ArraySlice<UInt8>) -> Bool {
        if let brands = ISOBrands(head) { return brands.major == "qt  " }
        let b = Array(head.prefix(8))
        return b.count == 8 && ["moov", "mdat", "wide"].contains(String(decoding: b[4..<8], as: UTF8.self))
    }

    static func matchesWebM(_ head: ArraySlice<UInt8>) -> Bool { docType(head) == "webm" }
    static func matchesMatroska(_ head: ArraySlice<UInt8>) -> Bool { docType(head) == "matroska" }

    /// Sound alone (iTunes' audio and audiobooks): not a clip.
    private static let audioBrands: Set<String> = ["M4A ", "M4B ", "M4P "]

    /// An EBML file's DocType (element 0x4282, in the header that opens it).
    private static func docType(_ head: ArraySlice<UInt8>) -> String? {
        let b = Array(head.prefix(64))
        guard b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        for i in 4..<max(4, b.count - 3) where b[i] == 0x42 && b[i + 1] == 0x82 && b[i + 2] & 0x80 != 0 {
            let length = Int(b[i + 2] & 0x7F)
            guard i + 3 + length <= b.count else { return nil }
            return String(decoding: b[(i + 3)..<(i + 3 + length)], as: UTF8.self)
        }
        return nil
    }

    /// The decode of the format table's row named `format`.
    static func decoder(for format: String) -> @Sendable (DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        { request throws(ImageDecodeError) in try decode(request, format: format) }
    }

    static func decode(_ request: DecodeRequest, format: String) throws(ImageDecodeError) -> DecoderOutput {
        var reason: UnsafePointer<CChar>?
        guard let av = photozoom_av_load(&reason) else {
            throw .libraryMissing(format: format, reason: "FFmpeg's libraries (Debian: libavformat59, libavcodec59, libswscale6) "
                                  + "could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        if let file = request.file {
            var source = photozoom_clip_source(fd: file, data: nil, start: 0, size: Int64(fileSize(file)), position: 0, sought_past_end: 0)
            return try poster(av, &source, atLeast: request.atLeast, format: format)
        }
        return try request.data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImageDecodeError) -> DecoderOutput in
                var source = photozoom_clip_source(fd: -1, data: bytes.baseAddress, start: 0, size: Int64(bytes.count), position: 0, sought_past_end: 0)
                return try poster(av, &source, atLeast: request.atLeast, format: format)
            }
        }.get()
    }

    private static func fileSize(_ fd: Int32) -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The first picture of the clip in `source`, covering `atLeast` (upright px) when asked.
    private static func poster(_ av: UnsafePointer<photozoom_av>, _ source: inout photozoom_clip_source,
                               atLeast: (width: Int, height: Int)?, format: String) throws(ImageDecodeError) -> DecoderOutput {
        var facts = photozoom_clip_facts()
        var words = [CChar](repeating: 0, count: 256)
        guard let clip = photozoom_clip_open(av, &source, &facts, 1, &words, Int32(words.count)) else {
            throw .corrupt(format: format, detail: String(cString: words))
        }
        defer { photozoom_clip_close(clip) }
        try toneMap(clip, facts, format: format)
        let orientation = Self.orientation(turning: Int(facts.rotation))
        let stored = (width: Int(facts.width), height: Int(facts.height))
        try ImageLimits.checkPixels(width: stored.width, height: stored.height)
        let size = coverSize(of: stored, covering: orientation.stored(atLeast))
        let picture = PixelImage(width: size.width, height: size.height, isOpaque: true)
        var seconds = 0.0
        let got = photozoom_clip_next_picture(clip, picture.bytes.assumingMemoryBound(to: UInt8.self), Int32(size.width), Int32(size.height),
                                              Int32(picture.stride), &seconds, &words, Int32(words.count))
        guard got == 1 else { throw .corrupt(format: format, detail: got == 0 ? "it holds no picture that decodes" : String(cString: words)) }
        let clipFacts = ClipFacts(facts, stored: stored, turned: orientation.swapsAxes)
        // It moves: it plays in the viewer as an animation does (`ClipFrames`).
        return DecoderOutput(image: orientation.apply(to: picture), fullSize: orientation.upright(stored), isAnimated: true, clip: clipFacts)
    }

    /// An HDR clip's pictures are brought to SDR from here on (`ClipToneMap`); an SDR clip's are left as they are.
    static func toneMap(_ clip: OpaquePointer, _ facts: photozoom_clip_facts, format: String) throws(ImageDecodeError) {
        guard var tone = ClipToneMap.tone(primaries: Int(facts.primaries), transfer: Int(facts.transfer)) else { return }
        guard photozoom_clip_set_tone(clip, &tone) == 0 else { throw .corrupt(format: format, detail: "out of memory for its HDR pictures") }
    }

    /// The smallest size, in `full`'s shape, that covers `target` (full size when none is asked, and never larger).
    static func coverSize(of full: (width: Int, height: Int), covering target: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        guard let target else { return full }
        let scale = min(1, max(Double(target.width) / Double(full.width), Double(target.height) / Double(full.height)))
        return (max(1, Int((Double(full.width) * scale).rounded(.up))), max(1, Int((Double(full.height) * scale).rounded(.up))))
    }

    /// The EXIF orientation that turns a picture `degrees` clockwise.
    static func orientation(turning degrees: Int) -> ExifOrientation {
        switch degrees { case 90: .right; case 180: .down; case 270: .left; default: .up }
    }
}

/// What a clip says of itself (its container's and its picture stream's words).
public struct ClipFacts: Sendable, Codable, Equatable {
    /// How long it plays, s (0: unknown).
    public var duration: Double
    /// Pictures a second (0: unknown).
    public var frameRate: Double
    /// FFmpeg's name of its pictures' codec ("h264", "hevc", "vp9", "av1").
    public var codec: String
    public var hasSound: Bool
    /// When it was filmed, as the file says it (QuickTime's creationdate with its zone, else creation_time); nil: not said.
    public var created: String?
    /// The camera (make and model) the file names; nil: none.
    public var camera: String?
    /// Its pictures' size upright, px.
    public var width: Int
    public var height: Int

    public init(duration: Double, frameRate: Double, codec: String, hasSound: Bool, created: String? = nil, camera: String? = nil,
                width: Int, height: Int) {
        (self.duration, self.frameRate, self.codec, self.hasSound) = (duration, frameRate, codec, hasSound)
        (self.created, self.camera, self.width, self.height) = (created, camera, width, height)
    }

    init(_ facts: photozoom_clip_facts, stored: (width: Int, height: Int), turned: Bool) {
        var facts = facts
        let codec = withUnsafeBytes(of: &facts.codec) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let created = withUnsafeBytes(of: &facts.creation) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let camera = withUnsafeBytes(of: &facts.camera) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        self.init(duration: facts.duration, frameRate: facts.frame_rate, codec: codec, hasSound: facts.has_audio != 0,
                  created: created.isEmpty ? nil : created, camera: camera.isEmpty ? nil : camera,
                  width: turned ? stored.height : stored.width, height: turned ? stored.width : stored.height)
    }

    /// Its length as a clock shows it: "0:14", "12:03", "1:02:03".
    public var durationText: String {
        let total = Int(duration.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let seconds = s < 10 ? "0\(s)" : "\(s)"
        guard h > 0 else { return "\(m):\(seconds)" }
        return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(seconds)"
    }
}
