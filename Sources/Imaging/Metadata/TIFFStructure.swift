/// The TIFF structure inside an EXIF block (the payload after "Exif\0\0"): a byte order, then a
/// chain of image file directories (IFD0 describes the photo, IFD1 its embedded thumbnail). Every
/// read is bounds-checked: a damaged block gives nil, never a crash.
struct TIFFStructure {
    private let bytes: [UInt8]
    private let littleEndian: Bool

    init?(_ block: ArraySlice<UInt8>) {
        bytes = Array(block)
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true    // "II"
        case (0x4D, 0x4D): littleEndian = false   // "MM"
        default: return nil
        }
        guard u16(at: 2) == 42 else { return nil }
    }

    /// One directory entry: a tag, its TIFF type, how many values, and the offset of its 4-byte value field.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let valueField: Int
    }

    /// The entries of IFD `n` (0: the photo's, 1: the thumbnail's); nil when there is no such IFD.
    func directory(_ n: Int) -> [Entry]? {
        guard var offset = u32(at: 4) else { return nil }
        for _ in 0..<n {
            guard let count = u16(at: offset), let next = u32(at: offset + 2 + count * 12), next != 0 else { return nil }
            offset = next
        }
        return directory(at: offset)
    }

    /// The EXIF sub-IFD (IFD0's tag 0x8769: the capture's date, exposure and lens).
    func exifDirectory() -> [Entry]? {
        guard let pointer = directory(0)?.first(where: { $0.tag == 0x8769 }), let offset = integer(pointer) else { return nil }
        return directory(at: offset)
    }

    /// The maker's note (the EXIF IFD's tag 0x927C): its bytes, in the maker's own layout.
    func makerNote() -> ArraySlice<UInt8>? {
        guard let note = exifDirectory()?.first(where: { $0.tag == 0x927C }), note.type == 7, note.count > 4,
              let offset = u32(at: note.valueField) else { return nil }
        return bytes(at: offset, count: note.count)
    }

    /// The GPS IFD (IFD0's tag 0x8825: where the photo was taken).
    func gpsDirectory() -> [Entry]? {
        guard let pointer = directory(0)?.first(where: { $0.tag == 0x8825 }), let offset = integer(pointer) else { return nil }
        return directory(at: offset)
    }

    /// The values of a RATIONAL (5) or SRATIONAL (10) entry (at most 16; a zero denominator gives none).
    func rationals(_ entry: Entry) -> [Double]? {
        guard entry.type == 5 || entry.type == 10, (1...16).contains(entry.count),
              let start = u32(at: entry.valueField), start >= 0, start <= bytes.count - entry.count * 8 else { return nil }
        return (0..<entry.count).compactMap { i -> Double? in
            guard var n = u32(at: start + i * 8), var d = u32(at: start + i * 8 + 4), d != 0 else { return nil }
            if entry.type == 10 { n = Int(Int32(truncatingIfNeeded: n)); d = Int(Int32(truncatingIfNeeded: d)) }
            return Double(n) / Double(d)
        }
    }

    /// The entries of the directory at `offset`.
    private func directory(at offset: Int) -> [Entry]? {
        guard offset >= 8, let count = u16(at: offset), offset + 2 + count * 12 <= bytes.count else { return nil }
        return (0..<count).compactMap { i in
            let at = offset + 2 + i * 12
            guard let tag = u16(at: at), let type = u16(at: at + 2), let n = u32(at: at + 4) else { return nil }
            return Entry(tag: tag, type: type, count: n, valueField: at + 8)
        }
    }

    /// The text of an ASCII (2) entry, up to its first NUL; nil when it is not text or not all there.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count > 0 else { return nil }
        let start = entry.count <= 4 ? entry.valueField : u32(at: entry.valueField) ?? -1
        guard start >= 0, start <= bytes.count - entry.count else { return nil }
        let text = bytes[start..<(start + entry.count)].prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of a BYTE (1), SHORT (3) or LONG (4) entry.
    func integer(_ entry: Entry) -> Int? {
        switch entry.type {
        case 1: bytes(at: entry.valueField, count: 1).map { Int($0.first!) }
        case 3: u16(at: entry.valueField)
        case 4: u32(at: entry.valueField)
        default: nil
        }
    }

    /// `count` bytes at `offset` (counted from the start of the structure), when all are there.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 8, count > 0, offset <= bytes.count - count else { return nil }
        return bytes[offset..<(offset + count)]
    }

    private func u16(at o: Int) -> Int? {
        guard o >= 0, o + 2 <= bytes.count else { return nil }
        return littleEndian ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : Int(bytes[o]) << 8 | Int(bytes[o + 1])
    }

    private func u32(at o: Int) -> Int? {
        guard let a = u16(at: o), let b = u16(at: o + 2) else { return nil }
        return littleEndian ? b << 16 | a : a << 16 | b
    }
}

/// Finding the EXIF block of a JPEG.
enum JPEGSegments {
    /// The TIFF structure of the APP1 "Exif\0\0" segment, if one comes before the image data.
    static func exif(in b: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        walk(b) { marker, payload in
            guard marker == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) else { return true }
            found = payload.dropFirst(6)
            return false
        }
        return found
    }

    /// The stored size of the picture, from its start-of-frame segment.
    static func frameSize(in b: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var size: (Int, Int)?
        walk(b) { marker, p in
            // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            guard (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), p.count >= 5 else { return true }
            let s = p.startIndex
            size = (Int(p[s + 3]) << 8 | Int(p[s + 4]), Int(p[s + 1]) << 8 | Int(p[s + 2]))
            return false
        }
        return size
    }

    /// Calls `visit` with each marker and its payload before the image data, while it returns true.
    static func walk(_ b: ArraySlice<UInt8>, _ visit: (UInt8, ArraySlice<UInt8>) -> Bool) {
        var i = b.startIndex + 2
        while i + 4 <= b.endIndex, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return }   // start of scan / end of image
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.endIndex else { return }
            if !visit(marker, b[(i + 4)..<(i + 2 + length)]) { return }
            i += 2 + length
        }
    }
}
