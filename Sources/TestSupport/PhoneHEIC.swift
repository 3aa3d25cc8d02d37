import Foundation

/// A HEIC laid out as a phone writes it, which no tool here makes (heif-enc 1.15 writes one picture): the photo as a
/// grid of 512x512 HEVC tiles (hidden items, one shared `hvcC`), the grid item primary and cropping them to the
/// photo's size, a 320x240 thumbnail item, and an Exif item. The tiles and the thumbnail are coded by FFmpeg's x265,
/// every frame an IDR picture; this file lays out the container (ISO/IEC 23008-12).
public enum PhoneHEIC {
    public struct Layout: Sendable {
        public var width: Int, height: Int, tile: Int
        public var thumbnail: (width: Int, height: Int)?
        /// x265's constant rate factor (x265 signals an all-intra stream as Main Intra, a RExt profile, which
        /// libde265 decodes as Main).
        public var quality: Int

        public init(width: Int = 4032, height: Int = 3024, tile: Int = 512, thumbnail: (width: Int, height: Int)? = (320, 240),
                    quality: Int = 2) {
            (self.width, self.height, self.tile, self.thumbnail, self.quality) = (width, height, tile, thumbnail, quality)
        }

        var columns: Int { (width + tile - 1) / tile }
        var rows: Int { (height + tile - 1) / tile }
    }

    /// Writes `source` (a picture FFmpeg reads, scaled to the layout's size) as the HEIC `target`, with `exif` (a
    /// TIFF-structured EXIF block, as a JPEG's APP1 holds after "Exif\0\0") as its Exif item.
    public static func make(from source: String, to target: String, layout: Layout = Layout(), exif: [UInt8]? = nil) throws {
        let grid = "scale=\(layout.width):\(layout.height),pad=\(layout.columns * layout.tile):\(layout.rows * layout.tile),"
            + "untile=\(layout.columns)x\(layout.rows)"
        let tiles = try pictures(try encode(source, filter: grid, quality: layout.quality))
        guard tiles.pictures.count == layout.columns * layout.rows else { throw Failure("x265 coded \(tiles.pictures.count) tiles") }
        let thumbnail = try layout.thumbnail.map { size in
            try pictures(try encode(source, filter: "scale=\(size.width):\(size.height)", quality: 20))
        }
        let file = container(layout: layout, tiles: tiles, thumbnail: thumbnail, exif: exif)
        try Data(file).write(to: URL(fileURLWithPath: target))
    }

    /// The TIFF block of a JPEG's EXIF segment (APP1 "Exif\0\0"), if its head has one.
    public static func exifBlock(ofJPEG path: String) -> [UInt8]? {
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else { return nil }
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xDA {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if bytes[at + 1] == 0xE1, at + 10 <= bytes.count, Array(bytes[at + 4..<at + 10]) == Array("Exif\0\0".utf8) {
                return Array(bytes[at + 10..<min(bytes.count, at + 2 + length)])
            }
            at += 2 + length
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// An HEVC elementary stream (Annex B) of `source` through `filter`, each frame an IDR picture, 4:2:0, 8 bits, full
    /// range (as phones code them; BT.601's matrix, as FFmpeg converts).
    private static func encode(_ source: String, filter: String, quality: Int) throws -> [UInt8] {
        let arguments = ["-v", "error", "-i", source, "-vf", filter, "-c:v", "libx265", "-preset", "ultrafast",
                         "-crf", "\(quality)", "-x265-params", "keyint=1:log-level=error:range=full", "-pix_fmt", "yuvj420p", "-color_range", "pc",
                         "-f", "hevc", "-"]
        let run = try DesktopTools.run("ffmpeg", arguments, seconds: 120)
        guard run.status == 0, !run.output.isEmpty else { throw TestClips.ToolFailed(name: "ffmpeg", arguments: arguments) }
        return Array(run.output)
    }

    /// A coded stream's parameter sets (its first of each) and its pictures, each as length-prefixed NAL units.
    struct Coded {
        var parameterSets: [(type: UInt8, nal: [UInt8])] = []
        var pictures: [[UInt8]] = []
    }

    private static func pictures(_ stream: [UInt8]) throws -> Coded {
        var coded = Coded()
        for nal in nalUnits(stream) where nal.count > 2 {
            let type = nal[0] >> 1 & 0x3F
            switch type {
            case 32, 33, 34:
                if !coded.parameterSets.contains(where: { $0.type == type }) { coded.parameterSets.append((type, nal)) }
            case 0...21:
                // A slice that starts a picture (first_slice_segment_in_pic_flag) starts a tile.
                if nal[2] & 0x80 != 0 || coded.pictures.isEmpty { coded.pictures.append([]) }
                coded.pictures[coded.pictures.count - 1] += u32(nal.count) + nal
            default:
                continue   // access unit delimiters and SEI stay out of the items
            }
        }
        guard coded.parameterSets.count == 3, !coded.pictures.isEmpty else { throw Failure("x265 wrote no HEVC pictures") }
        return coded
    }

    /// The NAL units between Annex B start codes (00 00 01, or 00 00 00 01).
    static func nalUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var i = 0
        while i + 3 <= stream.count {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 1 { starts.append(i + 3); i += 3 } else { i += 1 }
        }
        return starts.indices.map { n in
            var end = n + 1 < starts.count ? starts[n + 1] - 3 : stream.count
            while end > starts[n], stream[end - 1] == 0 { end -= 1 }   // the zero byte of a four-byte start code
            return Array(stream[starts[n]..<end])
        }
    }

    /// The `hvcC` record of a stream coded 4:2:0 at 8 bits: the SPS's profile, tier and level, then the parameter sets.
    static func decoderConfiguration(_ coded: Coded) -> [UInt8] {
        let sps = coded.parameterSets.first { $0.type == 33 }!.nal
        // The SPS's general profile_tier_level (12 bytes after its 2-byte header and 1 byte of ids) is the record's
        // next 12 bytes; emulation prevention bytes are taken out first.
        var rbsp: [UInt8] = []
        for byte in sps where !(byte == 3 && rbsp.suffix(2) == [0, 0]) { rbsp.append(byte) }
        var record: [UInt8] = [1] + rbsp[3..<15]
        record += [0xF0, 0x00, 0xFC, 0xFD, 0xF8, 0xF8, 0x00, 0x00, 0x0F, UInt8(coded.parameterSets.count)]
        for set in coded.parameterSets { record += [0x80 | set.type, 0, 1] + u16(set.nal.count) + set.nal }
        return record
    }
}

// MARK: - The container

extension PhoneHEIC {
    /// ftyp, meta (the items, their places, references and properties) and mdat: the grid is item 1, the tiles 2...,
    /// then the thumbnail and the Exif block.
    static func container(layout: Layout, tiles: Coded, thumbnail: Coded?, exif: [UInt8]?) -> [UInt8] {
        let tileIDs = Array(2..<2 + tiles.pictures.count)
        let thumbnailID = thumbnail.map { _ in tileIDs.last! + 1 }
        let exifID = exif.map { _ in (thumbnailID ?? tileIDs.last!) + 1 }
        // The items' data in mdat's order: the grid's description, the tiles, the thumbnail, the Exif item
        // (its TIFF header's offset, none, first).
        let gridData: [UInt8] = [0, 0, UInt8(layout.rows - 1), UInt8(layout.columns - 1)] + u16(layout.width) + u16(layout.height)
        var data: [(id: Int, bytes: [UInt8])] = [(1, gridData)] + zip(tileIDs, tiles.pictures).map { ($0, $1) }
        if let thumbnailID, let thumbnail { data.append((thumbnailID, thumbnail.pictures[0])) }
        if let exifID, let exif { data.append((exifID, u32(0) + exif)) }

        var infos = [itemInfo(1, "grid", hidden: false)] + tileIDs.map { itemInfo($0, "hvc1", hidden: true) }
        if let thumbnailID { infos.append(itemInfo(thumbnailID, "hvc1", hidden: false)) }
        if let exifID { infos.append(itemInfo(exifID, "Exif", hidden: false)) }
        var references = reference("dimg", from: 1, to: tileIDs)
        if let thumbnailID { references += reference("thmb", from: thumbnailID, to: [1]) }
        if let exifID { references += reference("cdsc", from: exifID, to: [1]) }

        // Properties (1-based): the tiles' hvcC and ispe, the grid's ispe, the colour, then the thumbnail's pair.
        var properties = [box("hvcC", decoderConfiguration(tiles)), fullBox("ispe", u32(layout.tile) + u32(layout.tile)),
                          fullBox("ispe", u32(layout.width) + u32(layout.height)),
                          box("colr", Array("nclx".utf8) + u16(1) + u16(13) + u16(6) + [0x80])]
        var associations = [(1, [3, 4])] + tileIDs.map { ($0, [0x81, 2]) }
        if let thumbnailID, let thumbnail, let size = layout.thumbnail {
            properties += [box("hvcC", decoderConfiguration(thumbnail)), fullBox("ispe", u32(size.width) + u32(size.height))]
            associations.append((thumbnailID, [0x85, 6, 4]))
        }
        let ipma = fullBox("ipma", u32(associations.count) + associations.flatMap { id, props in u16(id) + [UInt8(props.count)] + props.map(UInt8.init) })

        let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heicmiaf".utf8))
        func meta(dataStart: Int) -> [UInt8] {
            var offset = dataStart
            let locations = data.flatMap { item -> [UInt8] in
                defer { offset += item.bytes.count }
                return u16(item.id) + u16(0) + u16(1) + u32(offset) + u32(item.bytes.count)
            }
            return fullBox("meta", fullBox("hdlr", u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                + fullBox("pitm", u16(1))
                + fullBox("iinf", u16(infos.count) + infos.joined())
                + fullBox("iloc", [0x44, 0x00] + u16(data.count) + locations)
                + fullBox("iref", references)
                + box("iprp", box("ipco", Array(properties.joined())) + ipma))
        }
        // The offsets point into mdat, which follows meta; meta's size does not depend on them.
        let head = ftyp.count + meta(dataStart: 0).count + 8
        let payload = data.flatMap(\.bytes)
        return ftyp + meta(dataStart: head) + box("mdat", payload)
    }

    private static func itemInfo(_ id: Int, _ type: String, hidden: Bool) -> [UInt8] {
        fullBox("infe", u16(id) + u16(0) + Array(type.utf8) + [0], version: 2, flags: hidden ? 1 : 0)
    }

    private static func reference(_ type: String, from: Int, to: [Int]) -> [UInt8] {
        box(type, u16(from) + u16(to.count) + to.flatMap(u16))
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(body.count + 8) + Array(type.utf8) + body }

    static func fullBox(_ type: String, _ body: [UInt8], version: UInt8 = 0, flags: Int = 0) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body)
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
}
