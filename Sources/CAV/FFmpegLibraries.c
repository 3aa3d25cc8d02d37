#include "CAV.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static photozoom_av table;
static const photozoom_av *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The soname these headers were built against: another major version may differ in its structs. */
static void *open_library(const char *soname)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(failure, sizeof failure, "%s", dlerror());
    return handle;
}

static void load(void)
{
    void *avutil = open_library("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR));
    void *avcodec = avutil ? open_library("libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)) : NULL;
    void *avformat = avcodec ? open_library("libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)) : NULL;
    void *swscale = avformat ? open_library("libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR)) : NULL;
    void *swresample = swscale ? open_library("libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR)) : NULL;
    if (!swresample) return;
#define PHOTOZOOM_AV_LOOKUP(library, name) \
    if (!(table.name = (__typeof__(name) *)dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "%s has no %s", "lib" #library, #name); \
        return; \
    }
    PHOTOZOOM_AV_FUNCTIONS(PHOTOZOOM_AV_LOOKUP)
#undef PHOTOZOOM_AV_LOOKUP
    loaded = &table;
}

const photozoom_av *photozoom_av_load(const char **reason)
{
    pthread_once(&once, load);
    *reason = loaded ? NULL : failure;
    return loaded;
}

#if LIBAVFORMAT_VERSION_MAJOR >= 61
static int memory_file_write(void *opaque, const uint8_t *buf, int n)
#else
static int memory_file_write(void *opaque, uint8_t *buf, int n)
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

static int64_t memory_file_seek(void *opaque, int64_t offset, int whence)
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

AVIOContext *photozoom_memory_file_open_io(const photozoom_av *av, photozoom_memory_file *file)
{
    const int size = 1 << 16;
    unsigned char *buffer = av->av_malloc(size);
    if (!buffer) return NULL;
    AVIOContext *io = av->avio_alloc_context(buffer, size, 1, file, NULL, memory_file_write, memory_file_seek);
    if (!io) av->av_free(buffer);
    return io;
}

void photozoom_memory_file_close_io(const photozoom_av *av, AVIOContext **io)
{
    if (!*io) return;
    av->avio_flush(*io);
    av->av_freep(&(*io)->buffer);
    av->avio_context_free(io);
}
