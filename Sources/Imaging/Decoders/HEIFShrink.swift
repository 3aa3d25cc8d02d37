import CHEIF
import Glibc
import Pixels

/// A HEIC or AVIF shown at half its size or less (a 12 MP phone photo in a 1080p window) is taken from libheif as the
/// planar RGB it makes of every picture anyway, and shrunk by a power of two on every core: asking libheif for RGBA
/// would interleave 12 MP on one thread (and for YCbCr, convert them back), and the photo is never held as RGBA at
/// full size. The rest of the shrink is `ImageDecoder`'s, as for any decoder.
struct HEIFShrink {
    let factor: Int

    /// The largest power of two (at least 2) that still leaves `size` covered, for an 8-bit picture without alpha;
    /// nil otherwise (the picture is decoded whole, as RGBA).
    init?(handle: OpaquePointer, covering size: (width: Int, height: Int), _ heif: photozoom_heif) {
        let width = Int(heif.heif_image_handle_get_width(handle)), height = Int(heif.heif_image_handle_get_height(handle))
        var factor = 1
        while width / (factor * 2) >= size.width, height / (factor * 2) >= size.height, factor < 64 { factor *= 2 }
        guard factor >= 2, heif.heif_image_handle_has_alpha_channel(handle) == 0,
              heif.heif_image_handle_get_luma_bits_per_pixel(handle) == 8 else { return nil }
        self.factor = factor
    }

    /// The planes decoded (libheif's grid put together, its transformations applied), then shrunk.
    func decode(_ handle: OpaquePointer, _ heif: photozoom_heif, _ format: String) throws(ImageDecodeError) -> PixelImage {
        var decoded: OpaquePointer?
        try HEIFDecoder.check(heif.heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_444, nil), format)
        guard let decoded else { throw .corrupt(format: format, detail: "no picture decoded") }
        defer { heif.heif_image_release(decoded) }
        var planes = photozoom_rgb_planes()
        planes.width = heif.heif_image_get_primary_width(decoded)
        planes.height = heif.heif_image_get_primary_height(decoded)
        var strides: [Int32] = [0, 0, 0]
        guard planes.width > 0, planes.height > 0,
              let r = heif.heif_image_get_plane_readonly(decoded, heif_channel_R, &strides[0]),
              let g = heif.heif_image_get_plane_readonly(decoded, heif_channel_G, &strides[1]),
              let b = heif.heif_image_get_plane_readonly(decoded, heif_channel_B, &strides[2]) else {
            throw .corrupt(format: format, detail: "no picture decoded")
        }
        planes.plane = (r, g, b)
        planes.stride = (Int(strides[0]), Int(strides[1]), Int(strides[2]))
        let image = PixelImage(width: (Int(planes.width) + factor - 1) / factor, height: (Int(planes.height) + factor - 1) / factor,
                               isOpaque: true)
        guard photozoom_rgb_planes_shrink(&planes, Int32(factor), image.bytes.assumingMemoryBound(to: UInt32.self), image.stride,
                                          Int32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))) != 0 else {
            throw .corrupt(format: format, detail: "no memory to shrink the picture")
        }
        return image
    }
}
