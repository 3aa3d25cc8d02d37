/// What an iPhone keeps in its EXIF maker's note that matters here: the ContentIdentifier that its Live Photo's
/// movie carries too (as `com.apple.quicktime.content.identifier`). The note begins "Apple iOS\0", a version (two
/// bytes), a byte order ("MM"), then one directory whose offsets count from the note's start; the identifier is its
/// tag 0x0011, text.
enum AppleMakerNote {
    static let header = Array("Apple iOS\0".utf8)

    /// The note's ContentIdentifier; nil when it is no Apple note, has none, or is damaged.
    static func contentIdentifier(in note: ArraySlice<UInt8>) -> String? {
        let b = Array(note)
        guard b.count >= 16, Array(b[0..<header.count]) == header else { return nil }
        let little: Bool
        switch (b[12], b[13]) {
        case (0x4D, 0x4D): little = false
        case (0x49, 0x49): little = true
        default: return nil
        }
        func u16(_ o: Int) -> Int? { o >= 0 && o + 2 <= b.count ? (little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])) : nil }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let c = u16(o + 2) else { return nil }
            return little ? c << 16 | a : a << 16 | c
        }
        guard let count = u16(14), count < 512 else { return nil }
        for i in 0..<count {
            let at = 16 + i * 12
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { return nil }
            guard tag == 0x0011, type == 2, n > 1, n < 256 else { continue }
            let start = n <= 4 ? at + 8 : u32(at + 8) ?? -1
            guard start >= 0, start + n <= b.count else { return nil }
            let text = String(decoding: b[start..<(start + n)].prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? nil : text
        }
        return nil
    }
}
