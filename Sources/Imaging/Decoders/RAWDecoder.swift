import CRaw
import Foundation
import Pixels

/// Camera RAW files (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF …) through libraw, shown as the
/// camera itself shows them: by the full-size preview JPEG it embeds (decoded with JPEG's DCT
/// scaling when a smaller picture will do), turned as the camera was held. The sensor data is not
/// developed.
enum RAWDecoder {
    /// Told by content: a DNG's version tag, a CR2's marker, the signatures of RAF, ORF, RW2 and CR3,
    /// or a TIFF structure whose first directory names a camera maker and holds a reduced picture or
    /// sub-directories (NEF, ARW, PEF and kin), as no scanner's or editor's TIFF does.
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        let b = Array(head.prefix(ImageFormat.sniffLength))
        if b.starts(with: Array("FUJIFILMCCD-RAW".utf8)) || b.starts(with: Array("IIRO".utf8)) || b.starts(with: Array("IIRS".utf8))
            || b.starts(with: Array("MMOR".utf8)) || b.starts(with: [0x49, 0x49, 0x55, 0x00]) {
            return true
        }
        if ISOBrands(head)?.major == "crx " { return true }
        guard TIFFHeader(head) != nil else { return false }
        if b.count >= 12, b[8..<12].elementsEqual([0x43, 0x52, 0x02, 0x00]) { return true }   // "CR", version 2
        guard let tiff = TIFFStructure(head), let ifd0 = tiff.directory(0) else { return false }
        let tags = Set(ifd0.map(\.tag))
        if tags.contains(0xC612) { return true }   // DNGVersion
        let reduced = ifd0.first { $0.tag == 0x00FE }.flatMap(tiff.integer) == 1
        return tags.contains(0x010F) && (reduced || tags.contains(0x014A))   // Make, and NewSubfileType 1 or SubIFDs
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        guard let raw = libraw_init(0) else { throw .corrupt(format: "camera RAW", detail: "libraw could not start") }
        defer { libraw_close(raw) }
        let opened = request.data.withUnsafeBytes { libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count) }
        guard opened == LIBRAW_SUCCESS.rawValue else { throw error(opened, "the file can't be read") }
        let unpacked = libraw_unpack_thumb(raw)
        guard unpacked == LIBRAW_SUCCESS.rawValue else {
            throw unpacked == LIBRAW_NO_THUMBNAIL.rawValue
                ? .unsupported(format: "camera RAW", detail: "it embeds no preview (its sensor data is not developed)")
                : error(unpacked, "its preview can't be read")
        }
        var format: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        var length: UInt32 = 0
        guard let bytes = photozoom_raw_thumbnail(raw, &format, &width, &height, &length), length > 0 else {
            throw .corrupt(format: "camera RAW", detail: "an empty preview")
        }
        let orientation = Self.orientation(flip: photozoom_raw_flip(raw))
        let preview = Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
        switch UInt32(format) {
        case LIBRAW_THUMBNAIL_JPEG.rawValue:
            let stored = try JPEGDecoder.decodeStored(preview, atLeast: orientation.stored(request.atLeast))
            return DecoderOutput(image: orientation.apply(to: stored.image), fullSize: orientation.upright(stored.full),
                                 colour: ICCProfile.inJPEG(preview).map(ColourDescription.icc) ?? .sRGB, problem: stored.problem)
        case LIBRAW_THUMBNAIL_BITMAP.rawValue where Int(width) * Int(height) * 3 == preview.count:
            try ImageLimits.check(width: Int(width), height: Int(height))
            var rows = RGBARows(width: Int(width), height: Int(height), isOpaque: true)
            preview.withUnsafeBufferPointer { p in
                for y in 0..<Int(height) { rows.append(p.baseAddress! + y * Int(width) * 3, channels: 3) }
            }
            return DecoderOutput(image: orientation.apply(to: rows.finish()), fullSize: orientation.upright((Int(width), Int(height))))
        default:
            throw .unsupported(format: "camera RAW", detail: "its preview is in a form not decoded here")
        }
    }

    /// dcraw's flip bits (1: mirror left-right, 2: mirror top-bottom, 4: transpose) as an orientation.
    static func orientation(flip: Int32) -> ExifOrientation {
        switch flip & 7 {
        case 1: .upMirrored
        case 2: .downMirrored
        case 3: .down
        case 4: .leftMirrored
        case 5: .left
        case 6: .right
        case 7: .rightMirrored
        default: .up
        }
    }

    private static func error(_ code: Int32, _ what: String) -> ImageDecodeError {
        let message = libraw_strerror(code).map { String(cString: $0) } ?? what
        if code == LIBRAW_FILE_UNSUPPORTED.rawValue { return .unsupported(format: "camera RAW", detail: "\(message) (\(what))") }
        return .corrupt(format: "camera RAW", detail: message)
    }
}
