#ifndef PHOTOZOOM_CHEIF_H
#define PHOTOZOOM_CHEIF_H
#include <libheif/heif.h>
#include "CDynamicLibrary.h"

/* libheif is opened on first use (dlopen), not linked: with its HEVC and AV1 codecs (libde265,
   x265, dav1d, aom) it costs a launch about 5 MiB and a dozen libraries, though only HEIC and AVIF
   files need it. These are the functions the HEIF decoder calls through the table. */
#define PHOTOZOOM_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_maximum_image_size_limit) X(heif_context_get_primary_image_handle) \
    X(heif_image_handle_release) X(heif_image_handle_get_width) X(heif_image_handle_get_height) \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_get_number_of_thumbnails) X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_thumbnail) X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_nclx_color_profile) X(heif_nclx_color_profile_free) \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_decode_image) \
    X(heif_image_get_plane_readonly) X(heif_image_get_primary_width) X(heif_image_get_primary_height) \
    X(heif_image_release)

/* The table, loaded once (from any thread); NULL when the library or a function is missing, with
   the loader's words in `reason`. */
PHOTOZOOM_DECLARE_TABLE(photozoom_heif, PHOTOZOOM_HEIF_FUNCTIONS)
#endif
