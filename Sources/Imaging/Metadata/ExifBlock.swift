/// An EXIF block as a camera writes one: IFD0 with the orientation (and the camera's make and model),
/// the EXIF IFD with the date taken and its offset, IFD1 with a JPEG thumbnail. Written
/// little-endian ("II"), entries in tag order, as the TIFF specification asks.
public struct ExifBlock: Sendable {
    public var orientation: ExifOrientation
    /// The thumbnail's JPEG bytes (IFD1); nil writes no IFD1.
    public var thumbnailJPEG: [UInt8]?
    /// DateTimeOriginal, "YYYY:MM:DD HH:MM:SS", and OffsetTimeOriginal, "+HH:MM"; nil writes none.
    public var dateTaken: (date: String, offset: String?)?
    /// Make and Model; nil writes none.
    public var camera: (make: String, model: String)?

    public init(orientation: ExifOrientation = .up, thumbnailJPEG: [UInt8]? = nil,
                dateTaken: (date: String, offset: String?)? = nil, camera: (make: String, model: String)? = nil) {
        self.orientation = orientation
        self.thumbnailJPEG = thumbnailJPEG
        self.dateTaken = dateTaken
        self.camera = camera
    }

    /// The whole APP1 segment (marker, length, "Exif\0\0", TIFF); nil when it exceeds a segment's 64 KiB.
    func app1Segment() -> [UInt8]? {
        let payload = Array("Exif\0\0".utf8) + tiff()
        let length = payload.count + 2
        guard length <= 0xFFFF else { return nil }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// One directory entry: a SHORT or LONG value, or ASCII text (put after the directories when it
    /// does not fit the entry's four bytes).
    private enum Value {
        case short(Int), long(Int), ascii(String)
        /// Filled in once the directories' places are known.
        case pointer
    }

    /// The TIFF structure: header, IFD0, the EXIF IFD, IFD1, the texts, the thumbnail.
    func tiff() -> [UInt8] {
        var ifd0: [(Int, Value)] = []
        if let camera {
            ifd0 += [(0x010F, .ascii(camera.make)), (0x0110, .ascii(camera.model))]
        }
        ifd0.append((0x0112, .short(orientation.rawValue)))
        var exif: [(Int, Value)] = []
        if let dateTaken {
            exif.append((0x9003, .ascii(dateTaken.date)))
            if let offset = dateTaken.offset { exif.append((0x9011, .ascii(offset))) }
            ifd0.append((0x8769, .pointer))
        }
        let ifd1: [(Int, Value)]? = thumbnailJPEG.map { [(0x0103, .short(6)), (0x0201, .pointer), (0x0202, .long($0.count))] }

        func size(_ entries: [(Int, Value)]) -> Int { 2 + entries.count * 12 + 4 }
        let ifd0At = 8, exifAt = ifd0At + size(ifd0)
        let ifd1At = exifAt + (exif.isEmpty ? 0 : size(exif))
        var dataAt = ifd1At + (ifd1.map(size) ?? 0)
        var data: [UInt8] = []
        let texts = (ifd0 + exif).reduce(0) { total, entry in
            if case .ascii(let text) = entry.1, text.utf8.count + 1 > 4 { return total + text.utf8.count + 1 }
            return total
        }
        let thumbnailAt = dataAt + texts

        var out: [UInt8] = [0x49, 0x49, 42, 0]
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        func directory(_ entries: [(Int, Value)], next: Int) {
            u16(entries.count)
            for (tag, value) in entries {
                u16(tag)
                switch value {
                case .short(let v): u16(3); u32(1); u16(v); u16(0)
                case .long(let v): u16(4); u32(1); u32(v)
                case .pointer: u16(4); u32(1); u32(tag == 0x8769 ? exifAt : thumbnailAt)
                case .ascii(let text):
                    let bytes = Array(text.utf8) + [0]
                    u16(2); u32(bytes.count)
                    if bytes.count <= 4 {
                        out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                    } else {
                        u32(dataAt)
                        dataAt += bytes.count
                        data += bytes
                    }
                }
            }
            u32(next)
        }
        u32(ifd0At)
        directory(ifd0, next: ifd1 == nil ? 0 : ifd1At)
        if !exif.isEmpty { directory(exif, next: 0) }
        if let ifd1 { directory(ifd1, next: 0) }
        return out + data + (thumbnailJPEG ?? [])
    }
}
