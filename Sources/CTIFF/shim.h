#ifndef PHOTOZOOM_CTIFF_SHIM_H
#define PHOTOZOOM_CTIFF_SHIM_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>

/* A TIFF read from memory: libtiff's client procedures over the file's bytes, and its errors
   caught per file (into `message`) instead of printed by its process-wide handler. */
typedef struct {
    const unsigned char *data;
    toff_t size;
    toff_t offset;
    char message[256];
} photozoom_tiff_source;

static tmsize_t photozoom_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    photozoom_tiff_source *source = (photozoom_tiff_source *)handle;
    if (count < 0 || source->offset >= source->size) return 0;
    toff_t left = source->size - source->offset;
    tmsize_t n = (toff_t)count < left ? count : (tmsize_t)left;
    memcpy(buffer, source->data + source->offset, (size_t)n);
    source->offset += (toff_t)n;
    return n;
}

static tmsize_t photozoom_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return 0;
}

static toff_t photozoom_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    photozoom_tiff_source *source = (photozoom_tiff_source *)handle;
    toff_t base = whence == SEEK_CUR ? source->offset : whence == SEEK_END ? source->size : 0;
    source->offset = base + offset;
    return source->offset;
}

static int photozoom_tiff_close(thandle_t handle) { (void)handle; return 0; }

static toff_t photozoom_tiff_size(thandle_t handle) { return ((photozoom_tiff_source *)handle)->size; }

static int photozoom_tiff_error(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)module;
    photozoom_tiff_source *source = (photozoom_tiff_source *)user;
    if (!source->message[0]) vsnprintf(source->message, sizeof source->message, format, arguments);
    return 1; /* handled: not printed */
}

static int photozoom_tiff_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

/* Opens the TIFF in `source`; no single allocation may pass `max_allocation` bytes. NULL on failure
   (source->message says why). */
static TIFF *photozoom_tiff_open(photozoom_tiff_source *source, tmsize_t max_allocation) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_allocation);
    TIFFOpenOptionsSetErrorHandlerExtR(options, photozoom_tiff_error, source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, photozoom_tiff_warning, source);
    /* "m": no memory mapping, the bytes are already in memory. */
    TIFF *tiff = TIFFClientOpenExt("photo", "rm", (thandle_t)source, photozoom_tiff_read, photozoom_tiff_write,
                                   photozoom_tiff_seek, photozoom_tiff_close, photozoom_tiff_size, NULL, NULL, options);
    TIFFOpenOptionsFree(options);
    return tiff;
}

/* TIFFGetField is variadic, which Swift cannot call: one function a value type. */
static inline int photozoom_tiff_u32(TIFF *tiff, uint32_t tag, uint32_t *value) { return TIFFGetField(tiff, tag, value); }
static inline int photozoom_tiff_u16(TIFF *tiff, uint32_t tag, uint16_t *value) { return TIFFGetField(tiff, tag, value); }
static inline int photozoom_tiff_icc(TIFF *tiff, uint32_t *count, void **data) {
    return TIFFGetField(tiff, TIFFTAG_ICCPROFILE, count, data);
}
#endif
