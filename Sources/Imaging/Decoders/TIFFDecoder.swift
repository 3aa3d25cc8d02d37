import CTIFF
import Pixels

/// TIFF through libtiff: the first page, in whatever layout libtiff's RGBA reader takes (8 and 16
/// bits, greyscale, palette, RGB, CMYK, YCbCr, strips or tiles, either byte order), read a band of
/// rows at a time into the picture, its Orientation tag and ICC profile honoured. A file cut short
/// shows the rows read before the cut, the rest grey, and says so.
enum TIFFDecoder {
    static func matches(_ head: ArraySlice<UInt8>) -> Bool { TIFFHeader(head) != nil }

    /// No single allocation of libtiff's may pass this (a tag or strip that claims more is refused):
    /// twice the file, or a band of rows of the largest picture the viewer takes.
    static func maxAllocation(fileSize: Int) -> Int { max(2 * fileSize, 256 << 20) }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        try request.data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImageDecodeError) -> DecoderOutput in try decode(bytes) }
        }.get()
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodeError) -> DecoderOutput {
        var source = photozoom_tiff_source()
        source.data = bytes.baseAddress
        source.size = UInt64(bytes.count)
        guard let tiff = photozoom_tiff_open(&source, tmsize_t(maxAllocation(fileSize: bytes.count))) else {
            throw .corrupt(format: "TIFF", detail: message(source, or: "the header can't be read"))
        }
        defer { TIFFClose(tiff) }
        var width: UInt32 = 0, height: UInt32 = 0, orientationTag: UInt16 = 1
        guard photozoom_tiff_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
              photozoom_tiff_u32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1 else {
            throw .corrupt(format: "TIFF", detail: "no image size")
        }
        try ImageLimits.checkPixels(width: Int(width), height: Int(height))
        _ = photozoom_tiff_u16(tiff, UInt32(TIFFTAG_ORIENTATION), &orientationTag)
        let orientation = ExifOrientation(rawValue: Int(orientationTag)) ?? .up
        var colour = ColourDescription.sRGB
        var iccCount: UInt32 = 0
        var iccData: UnsafeMutableRawPointer?
        if photozoom_tiff_icc(tiff, &iccCount, &iccData) == 1, let iccData, iccCount > 0, Int(iccCount) <= ICCProfile.maxBytes {
            colour = .icc(Array(UnsafeRawBufferPointer(start: iccData, count: Int(iccCount))))
        }

        var reason = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &reason) == 1 else { throw .unsupported(format: "TIFF", detail: text(reason)) }
        var reader = TIFFRGBAImage()
        guard TIFFRGBAImageBegin(&reader, tiff, 1, &reason) == 1 else { throw .corrupt(format: "TIFF", detail: text(reason)) }
        defer { TIFFRGBAImageEnd(&reader) }
        // Rows as stored, top first: the orientation is turned below, as every format's is.
        reader.req_orientation = reader.orientation

        let (w, h) = (Int(width), Int(height))
        var rows = RGBARows(width: w, height: h, isOpaque: reader.alpha == 0)
        let band = bandHeight(tiff, width: w, height: h)
        var raster = [UInt32](repeating: 0, count: w * band)
        var problem: String?
        var y = 0
        while y < h {
            let n = min(band, h - y)
            reader.row_offset = Int32(y)
            let ok = raster.withUnsafeMutableBufferPointer { TIFFRGBAImageGet(&reader, $0.baseAddress, width, UInt32(n)) == 1 }
            guard ok else {
                guard y > 0 else { throw .corrupt(format: "TIFF", detail: message(source, or: "the image data can't be read")) }
                problem = "truncated or damaged TIFF (\(message(source, or: "a strip can't be read"))); showing what was decoded"
                break
            }
            // libtiff's words are R, G, B, A bytes in memory, already premultiplied.
            raster.withUnsafeBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for r in 0..<n { rows.append(base + r * w * 4, premultiplied: true) }
            }
            y += n
        }
        if y < h {
            let grey = [UInt8](repeating: 128, count: w * 3)
            grey.withUnsafeBufferPointer { for _ in y..<h { rows.append($0.baseAddress!, channels: 3) } }
        }
        let image = rows.finish()
        return DecoderOutput(image: orientation.apply(to: image), fullSize: orientation.upright((w, h)), colour: colour, problem: problem)
    }

    /// Rows a read takes: a whole strip (a compressed strip read in parts is decoded again from its
    /// start each time) or a row of tiles, at least 64 rows, within 256 MiB.
    private static func bandHeight(_ tiff: OpaquePointer, width: Int, height: Int) -> Int {
        var rowsPerStrip: UInt32 = 0, tileLength: UInt32 = 0
        let unit = TIFFIsTiled(tiff) != 0
            ? (photozoom_tiff_u32(tiff, UInt32(TIFFTAG_TILELENGTH), &tileLength) == 1 ? Int(tileLength) : 64)
            : (photozoom_tiff_u32(tiff, UInt32(TIFFTAG_ROWSPERSTRIP), &rowsPerStrip) == 1 ? Int(rowsPerStrip) : 64)
        let wanted = max(1, unit) * max(1, (64 + max(1, unit) - 1) / max(1, unit))
        let affordable = max(1, (256 << 20) / max(1, width * 4))
        return max(1, min(wanted, affordable, height))
    }

    private static func message(_ source: photozoom_tiff_source, or fallback: String) -> String {
        let said = withUnsafeBytes(of: source.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return said.isEmpty ? fallback : said
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A TIFF file's header: its byte order, classic or BigTIFF, and where its first directory is.
struct TIFFHeader {
    let littleEndian: Bool
    let isBigTIFF: Bool

    init?(_ head: ArraySlice<UInt8>) {
        let b = Array(head.prefix(8))
        guard b.count >= 8 else { return nil }
        switch (b[0], b[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        let version = littleEndian ? Int(b[2]) | Int(b[3]) << 8 : Int(b[2]) << 8 | Int(b[3])
        guard version == 42 || version == 43 else { return nil }
        isBigTIFF = version == 43
    }
}
