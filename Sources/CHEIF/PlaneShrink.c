#include "CHEIF.h"
#include <pthread.h>
#include <stdlib.h>

/* Each output pixel is the mean of its block of factor x factor samples (factor a power of two) of each plane, the blocks cut short at the
   picture's right and bottom edges, rounded to the nearest. A block's rows are summed down a row of columns first
   (a loop the compiler vectorises), then across; `columns` holds a row's sums (64 x 255 fits 16 bits). */
static void shrink_rows(const photozoom_rgb_planes *in, int factor, uint32_t *out, size_t out_stride,
                        int row_begin, int row_end, uint16_t *columns) {
    const int out_width = (in->width + factor - 1) / factor;
    const unsigned whole = (unsigned)(factor * factor);
    int shift = 0;
    while ((1u << shift) < whole) shift++;
    for (int oy = row_begin; oy < row_end; oy++) {
        const int y0 = oy * factor, y1 = y0 + factor < in->height ? y0 + factor : in->height;
        uint32_t *row = (uint32_t *)((uint8_t *)out + (size_t)oy * out_stride);
        for (int ox = 0; ox < out_width; ox++) row[ox] = 0xFF000000u;
        for (int plane = 0; plane < 3; plane++) {
            for (int x = 0; x < in->width; x++) columns[x] = 0;
            for (int y = y0; y < y1; y++) {
                const uint8_t *p = in->plane[plane] + (size_t)y * in->stride[plane];
                for (int x = 0; x < in->width; x++) columns[x] += p[x];
            }
            for (int ox = 0; ox < out_width; ox++) {
                const int x0 = ox * factor, x1 = x0 + factor < in->width ? x0 + factor : in->width;
                const unsigned samples = (unsigned)((y1 - y0) * (x1 - x0));
                unsigned sum = 0;
                for (int x = x0; x < x1; x++) sum += columns[x];
                // A whole block's count is a power of two: a shift, where a division took most of the time.
                const unsigned mean = samples == whole ? (sum + whole / 2) >> shift : (sum + samples / 2) / samples;
                row[ox] |= mean << (16 - 8 * plane);
            }
        }
    }
}

typedef struct {
    const photozoom_rgb_planes *in;
    int factor, row_begin, row_end;
    uint32_t *out;
    size_t out_stride;
    int done;
} band;

static void *shrink_band(void *argument) {
    band *b = argument;
    uint16_t *columns = malloc(sizeof(uint16_t) * (size_t)b->in->width);
    b->done = columns != NULL;
    if (columns) shrink_rows(b->in, b->factor, b->out, b->out_stride, b->row_begin, b->row_end, columns);
    free(columns);
    return NULL;
}

/* One band of rows a thread, the last on the calling thread; a thread that cannot start leaves its band to it. */
int photozoom_rgb_planes_shrink(const photozoom_rgb_planes *in, int factor, uint32_t *out, size_t out_stride,
                                 int threads) {
    enum { most = 16 };
    const int rows = (in->height + factor - 1) / factor;
    if (threads < 1) threads = 1;
    if (threads > most) threads = most;
    band bands[most];
    pthread_t ids[most];
    int started[most] = {0};
    for (int i = 0; i < threads; i++) {
        bands[i] = (band){ in, factor, rows * i / threads, rows * (i + 1) / threads, out, out_stride, 0 };
        if (i < threads - 1) started[i] = pthread_create(&ids[i], NULL, shrink_band, &bands[i]) == 0;
    }
    shrink_band(&bands[threads - 1]);
    for (int i = 0; i < threads - 1; i++) {
        if (started[i]) pthread_join(ids[i], NULL); else shrink_band(&bands[i]);
    }
    int done = 1;
    for (int i = 0; i < threads; i++) done &= bands[i].done;
    return done;
}
