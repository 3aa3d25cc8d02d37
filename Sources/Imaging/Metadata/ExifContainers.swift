/// Where each format keeps its EXIF block (the TIFF structure), found in a file's first bytes.
extension TIFFStructure {
    /// A JPEG's APP1 "Exif" segment.
    init?(jpeg b: ArraySlice<UInt8>) {
        guard let block = JPEGSegments.exif(in: b) else { return nil }
        self.init(block)
    }

    /// A PNG's `eXIf` chunk (the TIFF structure itself).
    init?(png b: ArraySlice<UInt8>) {
        guard let chunk = PNGChunks(b).first(where: { $0.type == "eXIf" }) else { return nil }
        self.init(b[chunk.payload])
    }

    /// A WebP's `EXIF` chunk, with or without the "Exif\0\0" that some writers put before the TIFF structure.
    init?(webp b: ArraySlice<UInt8>) {
        let bytes = Array(b)
        guard let chunk = WebPChunks(bytes).first(where: { $0.fourCC == "EXIF" }) else { return nil }
        var payload = bytes[chunk.payload]
        if payload.starts(with: Array("Exif\0\0".utf8)) { payload = payload.dropFirst(6) }
        self.init(payload)
    }

    /// A HEIF's or AVIF's `Exif` item, when it lies within `head` (the file's first bytes).
    init?(heif head: ArraySlice<UInt8>) {
        switch HEIFExifItem.locate(in: head) {
        case .inHead(let range)?:
            guard let tiff = HEIFExifItem.tiff(inItem: head[range]) else { return nil }
            self = tiff
        case .file(let offset, let length)? where offset <= head.count - length:
            let start = head.startIndex + offset
            guard let tiff = HEIFExifItem.tiff(inItem: head[start..<(start + length)]) else { return nil }
            self = tiff
        default:
            return nil
        }
    }

    /// The EXIF block of a JPEG, PNG, WebP, HEIC, AVIF, TIFF or TIFF-based raw file from its first bytes;
    /// nil for other formats, without one, or when the block lies past `head` (a WebP's comes after its
    /// image, a HEIC's often at the end: `CaptureDate.read` reads it there).
    init?(head: ArraySlice<UInt8>) {
        switch ImageFormat(sniffing: head.prefix(ImageFormat.sniffLength)) {
        case .jpeg?: self.init(jpeg: head)
        case .png?, .apng?: self.init(png: head)
        case .webp?: self.init(webp: head)
        case .heic?, .avif?: self.init(heif: head)
        case .tiff?, .raw?: self.init(head)
        default: return nil
        }
    }
}
