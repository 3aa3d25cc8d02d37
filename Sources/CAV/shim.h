#ifndef PHOTOZOOM_CAV_SHIM_H
#define PHOTOZOOM_CAV_SHIM_H
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import. */
static inline int photozoom_averror_again(void) { return AVERROR(EAGAIN); }
static inline int photozoom_averror_eof(void) { return AVERROR_EOF; }

/* A growable memory file for libavformat: the MP4 muxer seeks back to patch sizes, so the sink
   keeps a position; the finished file is handed over only when it is whole. */
typedef struct {
    uint8_t *data;
    int64_t size, capacity, position;
    int failed;
} photozoom_memory_file;

#if LIBAVFORMAT_VERSION_MAJOR >= 61
static int photozoom_memory_file_write(void *opaque, const uint8_t *buf, int n)
#else
static int photozoom_memory_file_write(void *opaque, uint8_t *buf, int n)
#endif
{
    photozoom_memory_file *f = opaque;
    if (n <= 0) return 0;
    int64_t end = f->position + n;
    if (end > f->capacity) {
        int64_t capacity = f->capacity ? f->capacity : 1 << 16;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(f->data, (size_t)capacity);
        if (!grown) { f->failed = 1; return AVERROR(ENOMEM); }
        f->data = grown;
        f->capacity = capacity;
    }
    if (f->position > f->size) memset(f->data + f->size, 0, (size_t)(f->position - f->size));
    memcpy(f->data + f->position, buf, (size_t)n);
    f->position = end;
    if (end > f->size) f->size = end;
    return n;
}

static int64_t photozoom_memory_file_seek(void *opaque, int64_t offset, int whence)
{
    photozoom_memory_file *f = opaque;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return f->size;
    case SEEK_SET: break;
    case SEEK_CUR: offset += f->position; break;
    case SEEK_END: offset += f->size; break;
    default: return AVERROR(EINVAL);
    }
    if (offset < 0) return AVERROR(EINVAL);
    f->position = offset;
    return offset;
}

/* An AVIOContext writing into `file` (freed with photozoom_memory_file_close_io). */
static inline AVIOContext *photozoom_memory_file_open_io(photozoom_memory_file *file)
{
    const int size = 1 << 16;
    unsigned char *buffer = av_malloc(size);
    if (!buffer) return NULL;
    AVIOContext *io = avio_alloc_context(buffer, size, 1, file, NULL, photozoom_memory_file_write,
                                         photozoom_memory_file_seek);
    if (!io) av_free(buffer);
    return io;
}

static inline void photozoom_memory_file_close_io(AVIOContext **io)
{
    if (!*io) return;
    avio_flush(*io);
    av_freep(&(*io)->buffer);
    avio_context_free(io);
}
#endif
