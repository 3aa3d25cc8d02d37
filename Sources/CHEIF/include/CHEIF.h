#ifndef PHOTOZOOM_CHEIF_H
#define PHOTOZOOM_CHEIF_H
#include <libheif/heif.h>
#include "CDynamicLibrary.h"

/* libheif is opened on first use (dlopen), not linked: with its HEVC and AV1 codecs (libde265,
   x265, dav1d, aom) it costs a launch about 5 MiB and a dozen libraries, though only HEIC and AVIF
   files need it. These are the functions the HEIF decoder calls through the table. */
#define PHOTOZOOM_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_memory_without_copy) \
    X(heif_context_read_from_reader) \
    X(heif_context_set_maximum_image_size_limit) X(heif_context_get_primary_image_handle) \
    X(heif_image_handle_release) X(heif_image_handle_get_width) X(heif_image_handle_get_height) \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_get_number_of_thumbnails) X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_thumbnail) X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_nclx_color_profile) X(heif_nclx_color_profile_free) \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_decode_image) \
    X(heif_image_get_plane_readonly) X(heif_image_get_primary_width) X(heif_image_get_primary_height) \
    X(heif_image_release) X(heif_context_set_max_decoding_threads) X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_create) X(heif_image_add_plane) X(heif_image_get_plane) \
    X(heif_nclx_color_profile_alloc) X(heif_nclx_color_profile_set_color_primaries) \
    X(heif_nclx_color_profile_set_transfer_characteristics) X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_image_set_nclx_color_profile) X(heif_register_decoder_plugin)

/* The table, loaded once (from any thread); NULL when the library or a function is missing, with
   the loader's words in `reason`. */
PHOTOZOOM_DECLARE_TABLE(photozoom_heif, PHOTOZOOM_HEIF_FUNCTIONS)

/* Has libheif decode HEVC pictures with FFmpeg's decoder (libavcodec, opened now), once a process; whether it
   does (libde265 does when libavcodec is missing). */
int photozoom_heif_use_ffmpeg(void);

/* The most HEVC pictures FFmpeg has decoded at once in this process (the tests' count of threads decoding). */
int photozoom_heif_ffmpeg_most_at_once(void);

/* An open file read by libheif in place, through pread (the descriptor's own offset untouched): libheif reads the
   boxes it parses and the items it decodes, so a thumbnail item costs its own bytes, not the photo's. */
typedef struct photozoom_heif_file photozoom_heif_file;

/* The file open as `fd` (of `size` bytes), to read from its start; NULL without memory. */
photozoom_heif_file *_Nullable photozoom_heif_file_new(int fd, int64_t size);
void photozoom_heif_file_free(photozoom_heif_file *_Nullable file);

/* The reader for `heif_context_read_from_reader`, its userdata a `photozoom_heif_file`. */
const struct heif_reader *_Nonnull photozoom_heif_file_reader(void);

/* An 8-bit picture's red, green and blue planes, as libheif gives every HEVC and AV1 picture before its output
   conversion (libheif 1.15 converts each tile to planar RGB as it is decoded). */
typedef struct {
    const uint8_t *_Nullable plane[3];
    size_t stride[3];
    int width, height;
} photozoom_rgb_planes;

/* `in` shrunk by `factor` (a power of two) into `out`, Cairo's opaque words (ceil(width / factor) a row), on
   `threads` threads: a picture shown at half its size or less, never held interleaved at full size. 0 when a
   thread's row of sums could not be allocated. */
int photozoom_rgb_planes_shrink(const photozoom_rgb_planes *_Nonnull in, int factor, uint32_t *_Nonnull out,
                                size_t out_stride, int threads);
#endif
