import CHEIF
import Glibc
import Pixels

/// HEIC/HEIF (HEVC) and AVIF (AV1) through libheif, opened on first use. The primary image is
/// decoded with the container's rotation, mirror and crop applied (and EXIF's orientation ignored:
/// it describes the same turn), to 8 bits a channel whatever the file's depth, with its alpha. For a
/// small picture (a grid cell) the file's own thumbnail item is decoded instead when it is large
/// enough. The colour comes from the `colr` box: an ICC profile, or nclx code points.
enum HEIFDecoder {
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let avifBrands: Set<String> = ["avif", "avis"]

    static func matchesAVIF(_ head: ArraySlice<UInt8>) -> Bool { ISOBrands(head)?.includes(any: avifBrands) ?? false }

    /// HEVC brands, or the generic HEIF ones (`mif1`, `msf1`) without an AV1 one.
    static func matchesHEIC(_ head: ArraySlice<UInt8>) -> Bool {
        guard let brands = ISOBrands(head) else { return false }
        return brands.includes(any: hevcBrands) || brands.includes(any: ["mif1", "msf1"]) && !brands.includes(any: avifBrands)
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        let format = matchesAVIF(request.data[...]) ? "AVIF" : "HEIC"
        // The context reads the bytes in place: they outlive it.
        return try request.data.withUnsafeBytes { bytes in
            Result { () throws(ImageDecodeError) -> DecoderOutput in
                try withContext(format) { heif, context throws(ImageDecodeError) in
                    try check(heif.heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), format)
                    return try decodePrimary(context, atLeast: request.atLeast, heif, format)
                }
            }
        }.get()
    }

    /// A context for one file, with libheif opened (and FFmpeg's HEVC decoder given to it).
    static func withContext<T>(_ format: String, _ body: (photozoom_heif, OpaquePointer) throws(ImageDecodeError) -> T) throws(ImageDecodeError) -> T {
        var reason: UnsafePointer<CChar>?
        guard let heif = photozoom_heif_load(&reason)?.pointee else {
            throw .libraryMissing(format: format, reason: "libheif (Debian: libheif1) could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        _ = photozoom_heif_use_ffmpeg()
        guard let context = heif.heif_context_alloc() else { throw .corrupt(format: format, detail: "libheif could not start") }
        defer { heif.heif_context_free(context) }
        // A phone's tiles are decoded a core each.
        heif.heif_context_set_max_decoding_threads(context, Int32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        // libheif's own security limits stay as they are (32768 px a side, and its limits on items and
        // boxes); the viewer's (250 MP, checked before any decode) binds first for most pictures.
        return try body(heif, context)
    }

    /// The primary image: a thumbnail item that covers `atLeast`, else the picture shrunk on the way where it allows,
    /// else whole.
    private static func decodePrimary(_ context: OpaquePointer, atLeast: (width: Int, height: Int)?, _ heif: photozoom_heif,
                                      _ format: String) throws(ImageDecodeError) -> DecoderOutput {
        var primary: OpaquePointer?
        try check(heif.heif_context_get_primary_image_handle(context, &primary), format)
        guard let primary else { throw .corrupt(format: format, detail: "no primary image") }
        defer { heif.heif_image_handle_release(primary) }
        let full = (width: Int(heif.heif_image_handle_get_width(primary)), height: Int(heif.heif_image_handle_get_height(primary)))
        try ImageLimits.checkPixels(width: full.width, height: full.height)

        let thumbnail = atLeast.flatMap { thumbnailHandle(of: primary, covering: $0, heif) }
        defer { if let thumbnail { heif.heif_image_handle_release(thumbnail) } }
        let handle = thumbnail ?? primary
        let shrink = thumbnail == nil ? atLeast.flatMap { HEIFShrink(handle: primary, covering: $0, heif) } : nil
        let image: PixelImage
        if let shrink { image = try shrink.decode(primary, heif, format) } else { image = try decodePixels(handle, heif, format) }
        return DecoderOutput(image: image, fullSize: full, colour: colour(of: handle, heif) ?? colour(of: primary, heif) ?? .sRGB)
    }

    /// The smallest thumbnail item of the HEIC or AVIF open as `fd`, upright, with its colour; nil without one (or
    /// with one over `maxSide` a side). Only the file's boxes and that item's bytes are read.
    static func thumbnailItem(fd: Int32, maxSide: Int) -> (image: PixelImage, colour: ColourDescription)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        guard let file = photozoom_heif_file_new(fd, Int64(info.st_size)) else { return nil }
        defer { photozoom_heif_file_free(file) }
        return try? withContext("HEIC") { heif, context throws(ImageDecodeError) in
            try check(heif.heif_context_read_from_reader(context, photozoom_heif_file_reader(), UnsafeMutableRawPointer(file), nil), "HEIC")
            var primary: OpaquePointer?
            try check(heif.heif_context_get_primary_image_handle(context, &primary), "HEIC")
            guard let primary else { return nil }
            defer { heif.heif_image_handle_release(primary) }
            guard let thumbnail = thumbnailHandle(of: primary, covering: (1, 1), heif) else { return nil }
            defer { heif.heif_image_handle_release(thumbnail) }
            guard Int(heif.heif_image_handle_get_width(thumbnail)) <= maxSide, Int(heif.heif_image_handle_get_height(thumbnail)) <= maxSide else {
                return nil
            }
            return (try decodePixels(thumbnail, heif, "HEIC"), colour(of: thumbnail, heif) ?? colour(of: primary, heif) ?? .sRGB)
        }
    }

    /// The largest thumbnail item that still covers `size` (upright), if there is one.
    private static func thumbnailHandle(of primary: OpaquePointer, covering size: (width: Int, height: Int),
                                        _ heif: photozoom_heif) -> OpaquePointer? {
        let count = Int(heif.heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        _ = heif.heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids {
            var handle: OpaquePointer?
            guard heif.heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let w = Int(heif.heif_image_handle_get_width(handle)), h = Int(heif.heif_image_handle_get_height(handle))
            if w >= size.width, h >= size.height, w <= ImageLimits.maxSide, h <= ImageLimits.maxSide, w * h < best?.pixels ?? .max {
                if let previous = best { heif.heif_image_handle_release(previous.handle) }
                best = (handle, w * h)
            } else {
                heif.heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// The handle's picture as 8-bit RGBA (HDR depths brought down to 8 bits), premultiplied.
    private static func decodePixels(_ handle: OpaquePointer, _ heif: photozoom_heif, _ format: String) throws(ImageDecodeError) -> PixelImage {
        let options = heif.heif_decoding_options_alloc()
        defer { heif.heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        try check(heif.heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options), format)
        guard let decoded else { throw .corrupt(format: format, detail: "no picture decoded") }
        defer { heif.heif_image_release(decoded) }
        let width = Int(heif.heif_image_get_primary_width(decoded)), height = Int(heif.heif_image_get_primary_height(decoded))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif.heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
            throw .corrupt(format: format, detail: "no picture decoded")
        }
        try ImageLimits.checkPixels(width: width, height: height)
        let opaque = heif.heif_image_handle_has_alpha_channel(handle) == 0
        var rows = RGBARows(width: width, height: height, isOpaque: opaque)
        for y in 0..<height { rows.append(plane + y * Int(stride)) }
        return rows.finish()
    }

    /// The handle's `colr`: its ICC profile, or its nclx primaries and transfer; nil without one.
    private static func colour(of handle: OpaquePointer, _ heif: photozoom_heif) -> ColourDescription? {
        switch heif.heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_rICC, heif_color_profile_type_prof:
            let size = heif.heif_image_handle_get_raw_color_profile_size(handle)
            guard size > 0, size <= ICCProfile.maxBytes else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            guard heif.heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else { return nil }
            return .icc(bytes)
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            // libheif hands over the profile even when it says it is invalid (found by the fuzzer: a leak).
            defer { if let nclx { heif.heif_nclx_color_profile_free(nclx) } }
            guard heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
            return .cicp(primaries: Int(nclx.pointee.color_primaries.rawValue), transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
        default:
            return nil
        }
    }

    static func check(_ error: heif_error, _ format: String) throws(ImageDecodeError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature: throw .unsupported(format: format, detail: message)
        default: throw .corrupt(format: format, detail: message)
        }
    }
}
