#ifndef PHOTOZOOM_CPNG_SHIM_H
#define PHOTOZOOM_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>

/* Macros Swift cannot import. */
static inline png_uint_32 photozoom_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 photozoom_png_format_bgr(void) { return PNG_FORMAT_BGR; }
static inline png_uint_32 photozoom_png_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
static inline png_uint_32 photozoom_png_image_version(void) { return PNG_IMAGE_VERSION; }
#endif
