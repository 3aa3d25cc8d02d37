import Foundation

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

extension ICCProfile {
    /// The profile's description ("Display P3", "Adobe RGB (1998)"): its `desc` tag, as ICC v2 writes it
    /// (ASCII) or v4 (`mluc`: UTF-16, the English record if there is one, else the first). Nil when the
    /// bytes do not hold one whole.
    static func description(of profile: [UInt8]) -> String? {
        func u32(_ o: Int) -> Int? {
            guard o >= 0, o + 4 <= profile.count else { return nil }
            return profile[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let count = u32(128), count < 1000 else { return nil }
        for i in 0..<count {
            let entry = 132 + i * 12
            guard let signature = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8) else { return nil }
            guard signature == 0x6465_7363, size >= 12, offset <= profile.count - size else { continue }   // "desc"
            let tag = profile[offset..<(offset + size)]
            switch u32(offset) {
            case 0x6465_7363?:   // "desc": a count, then that many ASCII bytes (with a NUL)
                guard let n = u32(offset + 8), n > 0, n <= size - 12 else { return nil }
                let text = tag.dropFirst(12).prefix(n).prefix { $0 != 0 }
                return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces).nonEmpty
            case 0x6D6C_7563?:   // "mluc": records of language, country, length and offset (from the tag)
                guard let records = u32(offset + 8), let recordSize = u32(offset + 12), recordSize >= 12, records > 0, records < 100 else { return nil }
                var chosen: (length: Int, at: Int)?
                for r in 0..<records {
                    let at = offset + 16 + r * recordSize
                    guard let language = u32(at), let length = u32(at + 4), let start = u32(at + 8) else { break }
                    if chosen == nil || language >> 16 == 0x656E { chosen = (length, start) }   // "en"
                    if language >> 16 == 0x656E { break }
                }
                guard let chosen, chosen.length >= 2, chosen.length <= size, chosen.at <= size - chosen.length else { return nil }
                let bytes = tag.dropFirst(chosen.at).prefix(chosen.length)
                let units = stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
                return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self).trimmingCharacters(in: .whitespaces).nonEmpty
            default:
                return nil
            }
        }
        return nil
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
