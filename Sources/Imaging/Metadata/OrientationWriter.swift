import CPNG

/// Turning a photo for good without touching its pixels, as Loupe and gThumb do: only the EXIF
/// Orientation tag changes. In a JPEG the APP1 block's IFD0 entry is rewritten in place (a JPEG without
/// EXIF gets a block of its own after its first segment); in a PNG the `eXIf` chunk's (its CRC made
/// again), or a new `eXIf` before the image data. An IFD0 without the tag gets a copy of itself with it,
/// appended to the block (the old one is left unreferenced: no other offset moves). The image data, and
/// every other byte of metadata, stay as they were. An MP4 or QuickTime clip is turned by its picture track's
/// matrix (`MovieMatrix`), which holds turns only.
public enum OrientationWriter {
    /// The orientation the bytes of a file this writer writes say now (`.up` when they say none).
    public static func current(in file: [UInt8]) -> ExifOrientation {
        if file.starts(with: [0xFF, 0xD8, 0xFF]) { return ExifOrientation(jpeg: file) }
        if file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return ExifOrientation(png: file) }
        if isMovie(file), let quarters = MovieMatrix.turn(in: file)?.quarters { return turns[quarters] }
        return .up
    }

    /// The file's bytes with `orientation` set; nil when the format is not one whose orientation is
    /// written (JPEG, PNG, and MP4 or QuickTime for a turn), or its metadata is damaged.
    public static func setting(_ orientation: ExifOrientation, in file: [UInt8]) -> [UInt8]? {
        if file.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(file, orientation) }
        if file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(file, orientation) }
        if isMovie(file), let quarters = turns.firstIndex(of: orientation) { return MovieMatrix.setting(quarters: quarters, in: file) }
        return nil
    }

    /// A clip's orientations by its clockwise quarter turns.
    private static let turns: [ExifOrientation] = [.up, .right, .down, .left]

    private static func isMovie(_ file: [UInt8]) -> Bool {
        ImageFormat(sniffing: file).map { $0 == .mp4 || $0 == .quickTime } ?? false
    }

    private static func jpeg(_ file: [UInt8], _ orientation: ExifOrientation) -> [UInt8]? {
        var exif: Range<Int>?, firstSegmentEnd: Int?
        JPEGSegments.walk(file[...]) { marker, payload in
            if firstSegmentEnd == nil, marker == 0xE0 { firstSegmentEnd = payload.endIndex }
            guard marker == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) else { return true }
            exif = payload.startIndex..<payload.endIndex
            return false
        }
        guard let exif else {
            // No EXIF block: one with the orientation alone, after the JFIF segment (if any).
            guard let segment = ExifBlock(orientation: orientation).app1Segment() else { return nil }
            let at = firstSegmentEnd ?? 2
            return Array(file[..<at]) + segment + Array(file[at...])
        }
        var tiff = Array(file[(exif.lowerBound + 6)..<exif.upperBound])
        guard set(orientation, in: &tiff) else { return nil }
        let length = tiff.count + 8   // the length field, "Exif\0\0", the TIFF structure
        guard length <= 0xFFFF else { return nil }
        return Array(file[..<(exif.lowerBound - 2)]) + [UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif\0\0".utf8)
            + tiff + Array(file[exif.upperBound...])
    }

    private static func png(_ file: [UInt8], _ orientation: ExifOrientation) -> [UInt8]? {
        var imageData: Int?
        for chunk in PNGChunks(file[...], throughImageData: true) {
            let start = chunk.payload.lowerBound - 8   // its length and type
            if chunk.type == "eXIf" {
                var tiff = Array(file[chunk.payload])
                guard set(orientation, in: &tiff) else { return nil }
                return Array(file[..<start]) + pngChunk("eXIf", tiff) + Array(file[(chunk.payload.upperBound + 4)...])
            }
            if chunk.type == "IDAT", imageData == nil { imageData = start }
        }
        guard let imageData else { return nil }
        return Array(file[..<imageData]) + pngChunk("eXIf", ExifBlock(orientation: orientation).tiff()) + Array(file[imageData...])
    }

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let n = data.count, crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + typed
            + [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    /// Sets IFD0's Orientation in a TIFF structure: in place when the tag is there (a SHORT), else in a copy
    /// of IFD0 with the tag added, appended, which the header then points to. False when the structure is damaged.
    static func set(_ orientation: ExifOrientation, in tiff: inout [UInt8]) -> Bool {
        guard let structure = TIFFStructure(tiff[...]), let entries = structure.directory(0) else { return false }
        let little = tiff[0] == 0x49
        func put16(_ v: Int, at o: Int) {
            let bytes = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
            tiff[o] = little ? bytes[0] : bytes[1]
            tiff[o + 1] = little ? bytes[1] : bytes[0]
        }
        func put32(_ v: Int, at o: Int) {
            put16(little ? v & 0xFFFF : v >> 16 & 0xFFFF, at: o)
            put16(little ? v >> 16 & 0xFFFF : v & 0xFFFF, at: o + 2)
        }
        if let entry = entries.first(where: { $0.tag == 0x0112 }) {
            guard entry.type == 3, entry.count == 1 else { return false }
            put16(orientation.rawValue, at: entry.valueField)
            return true
        }
        // The old IFD0's entries, as stored, with the new one in tag order, and its link to IFD1.
        let first = little ? Int(tiff[4]) | Int(tiff[5]) << 8 | Int(tiff[6]) << 16 | Int(tiff[7]) << 24
                           : Int(tiff[4]) << 24 | Int(tiff[5]) << 16 | Int(tiff[6]) << 8 | Int(tiff[7])
        let count = entries.count, linkAt = first + 2 + count * 12
        guard linkAt + 4 <= tiff.count else { return false }
        var rows = (0..<count).map { Array(tiff[(first + 2 + $0 * 12)..<(first + 14 + $0 * 12)]) }
        let place = entries.firstIndex { $0.tag > 0x0112 } ?? count
        rows.insert([UInt8](repeating: 0, count: 12), at: place)
        let link = Array(tiff[linkAt..<(linkAt + 4)])
        if tiff.count % 2 == 1 { tiff.append(0) }   // directories start on a word boundary
        let at = tiff.count
        tiff += [0, 0] + rows.joined() + link
        put16(count + 1, at: at)
        let entry = at + 2 + place * 12
        put16(0x0112, at: entry)
        put16(3, at: entry + 2)
        put32(1, at: entry + 4)
        put16(orientation.rawValue, at: entry + 8)
        put32(at, at: 4)
        return true
    }
}

