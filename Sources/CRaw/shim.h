#ifndef PHOTOZOOM_CRAW_SHIM_H
#define PHOTOZOOM_CRAW_SHIM_H
#include <libraw/libraw.h>

/* libraw_data_t is a large struct (Swift would copy it whole to read a field): the few fields
   the RAW decoder reads, through accessors. */
static inline int photozoom_raw_flip(const libraw_data_t *raw) { return raw->sizes.flip; }
static inline const char *photozoom_raw_make(const libraw_data_t *raw) { return raw->idata.make; }
static inline const char *photozoom_raw_model(const libraw_data_t *raw) { return raw->idata.model; }

/* The embedded preview after libraw_unpack_thumb: its bytes (a JPEG, or 8-bit RGB rows), its format
   and size. */
static inline const unsigned char *photozoom_raw_thumbnail(const libraw_data_t *raw, int *format, int *width, int *height,
                                                           unsigned *length) {
    *format = (int)raw->thumbnail.tformat;
    *width = raw->thumbnail.twidth;
    *height = raw->thumbnail.theight;
    *length = raw->thumbnail.tlength;
    return (const unsigned char *)raw->thumbnail.thumb;
}
#endif
