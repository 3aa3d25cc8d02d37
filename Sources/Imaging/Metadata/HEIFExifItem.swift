/// Where a HEIF or AVIF file keeps its EXIF block: an item of type `Exif` listed in the `meta` box
/// (`iinf`), found by its location (`iloc`) in the file or in the box's own data (`idat`). The `meta`
/// box comes first, so a file's first bytes say where; the item itself often comes after the image
/// data, at the end of the file. (libheif would find it too, but reads the whole image's data to do so.)
enum HEIFExifItem {
    enum Location: Equatable {
        /// `length` bytes at `offset` in the file.
        case file(offset: Int, length: Int)
        /// Within the bytes given (the `meta` box's `idat`).
        case inHead(Range<Int>)
    }

    /// The largest EXIF item read (the block is at most 64 KiB in a JPEG; some room for a maker's notes).
    static let maximumLength = 1 << 20

    /// The EXIF item of the HEIF or AVIF file whose first bytes are `head`; nil for another format,
    /// without one, or with one this reader does not follow (several extents, another item's data).
    static func locate(in head: ArraySlice<UInt8>) -> Location? {
        guard HEIFDecoder.matchesHEIC(head.prefix(ImageFormat.sniffLength)) || HEIFDecoder.matchesAVIF(head.prefix(ImageFormat.sniffLength)),
              let meta = ISOBoxes(head).first(where: { $0.type == "meta" }) else { return nil }
        // A full box: version and flags first.
        let children = Array(ISOBoxes(head[meta.payload].dropFirst(4)))
        guard let info = children.first(where: { $0.type == "iinf" }), let id = exifItemID(head[info.payload]),
              let locations = children.first(where: { $0.type == "iloc" }),
              let (method, offset, length) = location(of: id, in: head[locations.payload]),
              length > 0, length <= maximumLength else { return nil }
        switch method {
        case 0:
            return .file(offset: offset, length: length)
        case 1:
            guard let data = children.first(where: { $0.type == "idat" }), offset <= data.payload.count - length else { return nil }
            let start = data.payload.lowerBound + offset
            return .inHead(start..<(start + length))
        default:
            return nil
        }
    }

    /// The TIFF structure in an EXIF item: it starts with the offset of the TIFF header from the
    /// item's fifth byte (6 when "Exif\0\0" comes first, 0 otherwise).
    static func tiff(inItem item: ArraySlice<UInt8>) -> TIFFStructure? {
        var reader = BigEndianReader(item)
        guard let offset = reader.integer(bytes: 4), offset < UInt64(item.count), reader.skip(Int(offset)) else { return nil }
        return TIFFStructure(item[reader.position...])
    }

    /// The ID of the first item of type `Exif` in an `iinf` box's payload.
    private static func exifItemID(_ payload: ArraySlice<UInt8>) -> UInt64? {
        var reader = BigEndianReader(payload)
        guard let version = reader.integer(bytes: 1), reader.skip(3),
              reader.skip(version == 0 ? 2 : 4) else { return nil }
        for entry in ISOBoxes(payload[reader.position...]) where entry.type == "infe" {
            var infe = BigEndianReader(payload[entry.payload])
            // Versions 2 and 3 carry an item type; 0 and 1 (old files) do not.
            guard let v = infe.integer(bytes: 1), v >= 2, infe.skip(3),
                  let id = infe.integer(bytes: v == 2 ? 2 : 4), infe.skip(2), let type = infe.fourCC() else { continue }
            if type == "Exif" { return id }
        }
        return nil
    }

    /// Item `id`'s construction method, offset and length from an `iloc` box's payload; nil unless it
    /// is one extent.
    private static func location(of id: UInt64, in payload: ArraySlice<UInt8>) -> (method: UInt64, offset: Int, length: Int)? {
        var r = BigEndianReader(payload)
        guard let version = r.integer(bytes: 1), version <= 2, r.skip(3),
              let sizes = r.integer(bytes: 1), let moreSizes = r.integer(bytes: 1),
              let count = r.integer(bytes: version < 2 ? 2 : 4) else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseOffsetSize = Int(moreSizes >> 4)
        let indexSize = version >= 1 ? Int(moreSizes & 0xF) : 0
        for _ in 0..<count {
            guard let itemID = r.integer(bytes: version < 2 ? 2 : 4),
                  let method = version >= 1 ? r.integer(bytes: 2).map({ $0 & 0xF }) : 0,
                  r.skip(2), let base = r.integer(bytes: baseOffsetSize), let extents = r.integer(bytes: 2) else { return nil }
            var first: (offset: UInt64, length: UInt64)?
            for _ in 0..<extents {
                guard r.skip(indexSize), let offset = r.integer(bytes: offsetSize), let length = r.integer(bytes: lengthSize) else { return nil }
                if first == nil { first = (offset, length) }
            }
            guard itemID == id else { continue }
            guard extents == 1, let first, base <= UInt64(Int.max / 2), first.offset <= UInt64(Int.max / 2),
                  first.length <= UInt64(Int.max / 2) else { return nil }
            return (method, Int(base + first.offset), Int(first.length))
        }
        return nil
    }
}
