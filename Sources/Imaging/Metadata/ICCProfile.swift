/// Finding the ICC profile a file embeds: its bytes, as the file holds them (`ColourProfile` makes
/// sense of them). A profile that is damaged, incomplete or absurdly large is not found: the picture
/// is then taken as sRGB, as an untagged one is.
enum ICCProfile {
    /// Larger profiles are not read (the largest real ones, with big tables, are a few MiB).
    static let maxBytes = 16 << 20

    /// A JPEG's APP2 "ICC_PROFILE\0" segments joined in their sequence order: a profile larger than
    /// a segment's 64 KiB spans several. Each of 1…count must be there exactly once.
    static func inJPEG(_ b: [UInt8]) -> [UInt8]? {
        let tag = Array("ICC_PROFILE\0".utf8)
        var parts: [Int: ArraySlice<UInt8>] = [:]
        var count = 0
        var consistent = true
        JPEGSegments.walk(b[...]) { marker, payload in
            guard marker == 0xE2, payload.count > tag.count + 2, payload.starts(with: tag) else { return true }
            let s = payload.startIndex + tag.count
            let (sequence, total) = (Int(payload[s]), Int(payload[s + 1]))
            if count == 0 { count = total }
            if sequence < 1 || total != count || parts[sequence] != nil { consistent = false }
            parts[sequence] = payload[(s + 2)...]
            return true
        }
        guard consistent, count > 0, parts.count == count else { return nil }
        let profile = (1...count).flatMap { parts[$0]! }
        return profile.count <= maxBytes ? profile : nil
    }

    /// A WebP's `ICCP` chunk.
    static func inWebP(_ b: [UInt8]) -> [UInt8]? {
        WebPChunks(b).first { $0.fourCC == "ICCP" }.map { Array(b[$0.payload]) }
    }
}

/// The chunks of a RIFF WebP file: each a four-character code and its payload's range.
struct WebPChunks: Sequence {
    struct Chunk {
        let fourCC: String
        let payload: Range<Int>
    }

    private let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func makeIterator() -> AnyIterator<Chunk> {
        var i = 12   // "RIFF", size, "WEBP"
        let b = bytes
        return AnyIterator {
            guard i + 8 <= b.count else { return nil }
            let fourCC = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            guard size >= 0, size <= b.count - i - 8 else { return nil }
            defer { i += 8 + size + size % 2 }   // chunks are padded to an even size
            return Chunk(fourCC: fourCC, payload: (i + 8)..<(i + 8 + size))
        }
    }
}

/// The chunks of a PNG file before its image data: each a type and its payload's range.
struct PNGChunks: Sequence {
    struct Chunk {
        let type: String
        let payload: Range<Int>
    }

    private let bytes: ArraySlice<UInt8>
    /// Whether the walk goes on past the first IDAT (an APNG's frames come after it).
    private let throughImageData: Bool

    init(_ bytes: ArraySlice<UInt8>, throughImageData: Bool = false) {
        self.bytes = bytes
        self.throughImageData = throughImageData
    }

    func makeIterator() -> AnyIterator<Chunk> {
        let b = bytes
        var i = b.startIndex + 8
        let all = throughImageData
        return AnyIterator {
            guard i + 12 <= b.endIndex else { return nil }
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length <= b.endIndex - i - 12, type != "IEND", all || type != "IDAT" else { return nil }
            defer { i += 12 + length }
            return Chunk(type: type, payload: (i + 8)..<(i + 8 + length))
        }
    }
}
