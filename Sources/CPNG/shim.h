#ifndef PHOTOZOOM_CPNG_SHIM_H
#define PHOTOZOOM_CPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Macros Swift cannot import. */
static inline int photozoom_inflate_init(z_stream *stream) { return inflateInit(stream); }
static inline png_uint_32 photozoom_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 photozoom_png_format_bgr(void) { return PNG_FORMAT_BGR; }
static inline png_uint_32 photozoom_png_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
static inline png_uint_32 photozoom_png_image_version(void) { return PNG_IMAGE_VERSION; }

/* libpng reports an error by longjmp, which Swift can't catch: the one C function here holds the
   setjmp, so that a file cut short still gives the rows decoded before the cut. */

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    /* The largest block libpng may allocate: a chunk's buffer is never larger than the file, a row
       never larger than 8 bytes a pixel. Bigger requests fail, and libpng skips that chunk. */
    size_t allocation_limit;
    char message[200];
} photozoom_png_reader;

static png_voidp photozoom_png_malloc(png_structp png, png_alloc_size_t size) {
    photozoom_png_reader *reader = (photozoom_png_reader *)png_get_mem_ptr(png);
    return size <= reader->allocation_limit ? malloc(size) : NULL;
}

static void photozoom_png_free(png_structp png, png_voidp pointer) { (void)png; free(pointer); }

static void photozoom_png_read_data(png_structp png, png_bytep out, size_t length) {
    photozoom_png_reader *reader = (photozoom_png_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) png_error(png, "the file ends early");
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

static void photozoom_png_error(png_structp png, png_const_charp message) {
    photozoom_png_reader *reader = (photozoom_png_reader *)png_get_error_ptr(png);
    strncpy(reader->message, message, sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = 0;
    png_longjmp(png, 1);
}

static void photozoom_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/* Decodes the PNG in reader's bytes into `pixels` as B, G, R, A bytes (Cairo's ARGB32 on a little-endian
   machine, before premultiplying), every colour type and depth
   expanded as Cairo's loader expands them (16 bits: the high byte). With `shrink` 1, `pixels` is width x
   height; with `shrink` k > 1 (a picture wider or taller than Cairo can hold), each k x k block becomes one
   pixel, its average, and `pixels` is ceil(width / k) x ceil(height / k). `stride` is the bytes of one
   row of `pixels`. Rows it could not reach keep what `pixels` held. Returns 1 when the whole image was
   decoded, 0 when it stopped early (reader->message says why), -1 when the header does not match width
   x height or can't be read, -2 for an interlaced picture that would need shrinking. `has_alpha` tells
   whether the image carries alpha. */
static int photozoom_png_decode(photozoom_png_reader *reader, unsigned char *pixels, size_t stride,
                                png_uint_32 width, png_uint_32 height, png_uint_32 shrink, int *has_alpha) {
    reader->allocation_limit = reader->size + (size_t)width * 8 + (1 << 20);
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, reader, photozoom_png_error, photozoom_png_warning,
                                               reader, photozoom_png_malloc, photozoom_png_free);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); return -1; }
    /* For shrinking: one source row, and the sums of the block row being made. */
    png_uint_32 out_width = (width + shrink - 1) / shrink;
    unsigned char *row = shrink > 1 ? malloc((size_t)width * 4) : NULL;
    unsigned long long *sums = shrink > 1 ? calloc((size_t)out_width * 4, sizeof *sums) : NULL;
    volatile int started = 0;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        free(sums);
        return started ? 0 : -1;
    }
    if (shrink > 1 && (!row || !sums)) png_error(png, "out of memory");
    png_set_read_fn(png, reader, photozoom_png_read_data);
    /* No chunk can be longer than its file: a 57-byte file that declares a 1 GiB text chunk must not
       have libpng allocate (and fill) 1 GiB. libpng only warns of such a chunk; the allocator above
       refuses its buffer, and the chunk is skipped. A compressed text or profile inflates to no more
       than the file's size either. Ancillary chunks beyond a few hundred are not kept. */
    png_set_chunk_malloc_max(png, reader->size + 1);
    png_set_chunk_cache_max(png, 256);
    png_read_info(png, info);
    png_uint_32 w, h;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &colour, &interlace, NULL, NULL);
    if (w != width || h != height) png_error(png, "the header changed");
    if (shrink > 1 && interlace != PNG_INTERLACE_NONE) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        free(sums);
        return -2;
    }
    *has_alpha = (colour & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (depth < 8) png_set_packing(png);
    if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_bgr(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    int passes = interlace != PNG_INTERLACE_NONE ? png_set_interlace_handling(png) : 1;
    png_read_update_info(png, info);
    started = 1;
    if (shrink == 1) {
        for (int pass = 0; pass < passes; pass++)
            for (png_uint_32 y = 0; y < height; y++) png_read_row(png, pixels + y * stride, NULL);
    } else {
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, row, NULL);
            for (png_uint_32 x = 0; x < width; x++)
                for (int c = 0; c < 4; c++) sums[(x / shrink) * 4 + c] += row[x * 4 + c];
            if ((y + 1) % shrink != 0 && y + 1 != height) continue;
            unsigned long long rows = y % shrink + 1;
            unsigned char *out = pixels + (y / shrink) * stride;
            for (png_uint_32 x = 0; x < out_width; x++) {
                unsigned long long columns = x + 1 < out_width ? shrink : width - x * shrink;
                for (int c = 0; c < 4; c++) out[x * 4 + c] = (unsigned char)(sums[x * 4 + c] / (rows * columns));
            }
            memset(sums, 0, (size_t)out_width * 4 * sizeof *sums);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    free(sums);
    return 1;
}
#endif
