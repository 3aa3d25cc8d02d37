/// A size in pixels: what a decode covers, and a photo's own as its first bytes state it (`stated(in:)`).
public struct PixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a file whose first bytes are `head` states (as stored: its EXIF orientation may turn it),
    /// without a pixel decoded: PNG's `IHDR`, a JPEG's frame header, a GIF's screen, a WebP's `VP8X`, `VP8 `
    /// or `VP8L` header, a HEIF's or AVIF's primary image's `ispe` (a grid's
    /// own, not its tiles'). Nil for the other formats, or when the bytes do not say.
    public static func stated(in head: ArraySlice<UInt8>) -> PixelSize? {
        let b = Array(head.prefix(32))
        func le(_ i: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(b[i + $1]) << (8 * $1) } }
        func be(_ i: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 << 8 | Int(b[i + $1]) } }
        let size: PixelSize?
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]), b[12..<16].elementsEqual("IHDR".utf8) {
            size = PixelSize(width: be(16, 4), height: be(20, 4))
        } else if b.count >= 10, b.starts(with: Array("GIF8".utf8)) {
            size = PixelSize(width: le(6, 2), height: le(8, 2))
        } else if b.count >= 30, b.starts(with: Array("RIFF".utf8)), b[8..<12].elementsEqual("WEBP".utf8) {
            size = webP(b, le)
        } else if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            size = jpegFrame(head)
        } else if HEIFDecoder.matchesHEIC(head.prefix(ImageFormat.sniffLength)) || HEIFDecoder.matchesAVIF(head.prefix(ImageFormat.sniffLength)) {
            size = primarySpatialExtent(head)
        } else {
            size = nil
        }
        return size.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
    }

    private static func webP(_ b: [UInt8], _ le: (Int, Int) -> Int) -> PixelSize? {
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X": return PixelSize(width: le(24, 3) + 1, height: le(27, 3) + 1)
        case "VP8 ":   // after the 3-byte frame tag, the start code 9D 01 2A, then 14-bit sizes
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return PixelSize(width: le(26, 2) & 0x3FFF, height: le(28, 2) & 0x3FFF)
        case "VP8L":   // the signature 0x2F, then width − 1 and height − 1 in 14 bits each
            guard b[20] == 0x2F else { return nil }
            let bits = le(21, 4)
            return PixelSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        default: return nil
        }
    }

    /// The first frame header (SOF0–SOF15, not DHT, JPG or DAC) before the scan.
    private static func jpegFrame(_ head: ArraySlice<UInt8>) -> PixelSize? {
        var at = head.startIndex + 2
        while at + 4 <= head.endIndex {
            guard head[at] == 0xFF else { return nil }
            let marker = head[at + 1]
            if marker == 0xFF { at += 1; continue }   // fill bytes
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }   // no length
            let length = Int(head[at + 2]) << 8 | Int(head[at + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 9 <= head.endIndex else { return nil }
                return PixelSize(width: Int(head[at + 7]) << 8 | Int(head[at + 8]), height: Int(head[at + 5]) << 8 | Int(head[at + 6]))
            }
            if marker == 0xDA || length < 2 { return nil }   // the scan began: no frame header before it
            at += 2 + length
        }
        return nil
    }

    /// The primary item's `ispe` property (`pitm`, then its associations in `ipma`, into `ipco`); the largest
    /// one when the boxes do not say which is the primary's.
    private static func primarySpatialExtent(_ head: ArraySlice<UInt8>) -> PixelSize? {
        guard let meta = ISOBoxes(head).first(where: { $0.type == "meta" }) else { return nil }
        let boxes = Array(ISOBoxes(head[meta.payload].dropFirst(4)))
        guard let properties = boxes.first(where: { $0.type == "iprp" }) else { return nil }
        let inProperties = Array(ISOBoxes(head[properties.payload]))
        guard let container = inProperties.first(where: { $0.type == "ipco" }) else { return nil }
        let extents: [PixelSize?] = ISOBoxes(head[container.payload]).map { box in
            var reader = BigEndianReader(head[box.payload])
            guard box.type == "ispe", reader.skip(4), let w = reader.integer(bytes: 4), let h = reader.integer(bytes: 4),
                  w <= UInt64(Int32.max), h <= UInt64(Int32.max) else { return nil }
            return PixelSize(width: Int(w), height: Int(h))
        }
        if let primary = boxes.first(where: { $0.type == "pitm" }).flatMap({ primaryItem(head[$0.payload]) }),
           let associations = inProperties.first(where: { $0.type == "ipma" }),
           let indices = propertyIndices(of: primary, in: head[associations.payload]),
           let extent = indices.lazy.compactMap({ extents.indices.contains($0 - 1) ? extents[$0 - 1] : nil }).first {
            return extent
        }
        return extents.compactMap { $0 }.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// The item ID a `pitm` box names.
    private static func primaryItem(_ payload: ArraySlice<UInt8>) -> UInt64? {
        var reader = BigEndianReader(payload)
        guard let version = reader.integer(bytes: 1), reader.skip(3) else { return nil }
        return reader.integer(bytes: version == 0 ? 2 : 4)
    }

    /// The properties (1-based places in `ipco`) an `ipma` box associates with `item`.
    private static func propertyIndices(of item: UInt64, in payload: ArraySlice<UInt8>) -> [Int]? {
        var reader = BigEndianReader(payload)
        guard let version = reader.integer(bytes: 1), let flags = reader.integer(bytes: 3), let count = reader.integer(bytes: 4) else { return nil }
        for _ in 0..<min(count, UInt64(payload.count)) {
            guard let id = reader.integer(bytes: version < 1 ? 2 : 4), let associations = reader.integer(bytes: 1) else { return nil }
            var indices: [Int] = []
            for _ in 0..<associations {
                guard let value = reader.integer(bytes: flags & 1 == 1 ? 2 : 1) else { return nil }
                indices.append(Int(value & (flags & 1 == 1 ? 0x7FFF : 0x7F)))
            }
            if id == item { return indices }
        }
        return nil
    }
}
