#include "Demuxer.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int source_read(void *opaque, uint8_t *buffer, int wanted)
{
    photozoom_clip_source *s = opaque;
    if (s->position >= s->size) return AVERROR_EOF;
    int64_t n = s->size - s->position < wanted ? s->size - s->position : wanted;
    if (s->data) {
        memcpy(buffer, s->data + s->position, (size_t)n);
    } else {
        ssize_t got;
        do { got = pread(s->fd, buffer, (size_t)n, s->start + s->position); } while (got < 0 && errno == EINTR);
        if (got < 0) return AVERROR(errno);
        if (got == 0) return AVERROR_EOF;
        n = got;
    }
    s->position += n;
    return (int)n;
}

static int64_t source_seek(void *opaque, int64_t offset, int whence)
{
    photozoom_clip_source *s = opaque;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return s->size;
    case SEEK_SET: break;
    case SEEK_CUR: offset += s->position; break;
    case SEEK_END: offset += s->size; break;
    default: return AVERROR(EINVAL);
    }
    if (offset < 0) return AVERROR(EINVAL);
    if (offset > s->size) s->sought_past_end = 1;
    s->position = offset;
    return offset;
}

void photozoom_say(char *reason, int size, const char *what, int error, const photozoom_av *av)
{
    char words[128] = "";
    if (error < 0) av->av_strerror(error, words, sizeof words);
    snprintf(reason, (size_t)size, "%s%s%s", what, *words ? ": " : "", words);
}

int photozoom_demuxer_open(const photozoom_av *av, photozoom_clip_source *source, AVIOContext **io,
                           AVFormatContext **format, char *reason, int size)
{
    av->av_log_set_level(AV_LOG_QUIET);
    const int buffer_size = 1 << 16;
    unsigned char *buffer = av->av_malloc(buffer_size);
    *io = buffer ? av->avio_alloc_context(buffer, buffer_size, 0, source, source_read, NULL, source_seek) : NULL;
    *format = *io ? av->avformat_alloc_context() : NULL;
    if (!*format) {
        if (!*io) av->av_free(buffer);
        photozoom_say(reason, size, "out of memory", 0, av);
        return -1;
    }
    (*format)->pb = *io;
    (*format)->flags |= AVFMT_FLAG_CUSTOM_IO;
    int error = av->avformat_open_input(format, NULL, NULL, NULL);
    if (error >= 0) error = av->avformat_find_stream_info(*format, NULL);
    if (error < 0) {
        photozoom_say(reason, size, "not a clip FFmpeg can read", error, av);
        return -1;
    }
    return 0;
}

void photozoom_demuxer_close(const photozoom_av *av, AVIOContext **io, AVFormatContext **format)
{
    /* A failed avformat_open_input has freed the context already (and set it to NULL). */
    if (*format) av->avformat_close_input(format);
    if (*io) {
        av->av_freep(&(*io)->buffer);
        av->avio_context_free(io);
    }
}
