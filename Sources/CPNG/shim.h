#ifndef PHOTOZOOM_CPNG_SHIM_H
#define PHOTOZOOM_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>

/* Macros Swift cannot import. */
static inline png_uint_32 photozoom_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 photozoom_png_image_version(void) { return PNG_IMAGE_VERSION; }
#endif
