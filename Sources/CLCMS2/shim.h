#ifndef PHOTOZOOM_CLCMS2_SHIM_H
#define PHOTOZOOM_CLCMS2_SHIM_H
#include <lcms2.h>

/* Pixel formats are macros Swift cannot import. Cairo's ARGB32 is B, G, R, A in memory on a
   little-endian machine: lcms2's BGRA, opaque or premultiplied. */
static inline cmsUInt32Number photozoom_lcms_bgra8(void) { return TYPE_BGRA_8; }
static inline cmsUInt32Number photozoom_lcms_bgra8_premultiplied(void) { return TYPE_BGRA_8 | PREMUL_SH(1); }
/* Linear light in doubles, for a transform's matrix read off from its three primaries. */
static inline cmsUInt32Number photozoom_lcms_rgb_double(void) { return TYPE_RGB_DBL; }
#endif
