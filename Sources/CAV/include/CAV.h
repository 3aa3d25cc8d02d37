#ifndef PHOTOZOOM_CAV_H
#define PHOTOZOOM_CAV_H
#include <errno.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

/* FFmpeg is opened on first use (dlopen), not linked: its four libraries pull in about a hundred
   more (x264, x265, every codec, TLS), which cost every viewer about 20 MiB of memory and their
   loading time at launch, though only an MP4 recording needs them. These are the functions the
   MP4 encoder calls through the table, each with the library that exports it. */
#define PHOTOZOOM_AV_FUNCTIONS(X) \
    X(avutil, av_log_set_level) X(avutil, av_strerror) X(avutil, av_d2q) X(avutil, av_opt_set) \
    X(avutil, av_malloc) X(avutil, av_free) X(avutil, av_freep) \
    X(avutil, av_frame_alloc) X(avutil, av_frame_free) X(avutil, av_frame_unref) X(avutil, av_frame_get_buffer) \
    X(avcodec, avcodec_find_encoder_by_name) X(avcodec, avcodec_find_encoder) X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_open2) X(avcodec, avcodec_free_context) X(avcodec, avcodec_parameters_from_context) \
    X(avcodec, avcodec_send_frame) X(avcodec, avcodec_receive_packet) \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_rescale_ts) \
    X(avformat, avformat_alloc_output_context2) X(avformat, avformat_new_stream) X(avformat, avformat_free_context) \
    X(avformat, avformat_write_header) X(avformat, av_interleaved_write_frame) X(avformat, av_write_trailer) \
    X(avformat, avio_alloc_context) X(avformat, avio_flush) X(avformat, avio_context_free) \
    X(swscale, sws_getContext) X(swscale, sws_freeContext) X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails) X(swscale, sws_getCoefficients)

#define PHOTOZOOM_AV_MEMBER(library, name) __typeof__(name) *_Nonnull name;
typedef struct {
    PHOTOZOOM_AV_FUNCTIONS(PHOTOZOOM_AV_MEMBER)
} photozoom_av;
#undef PHOTOZOOM_AV_MEMBER

/* The table, loaded once (from any thread); NULL when a library or a function is missing, with
   the loader's words in `reason`. */
const photozoom_av *_Nullable photozoom_av_load(const char *_Nullable *_Nonnull reason);

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import. */
static inline int photozoom_averror_again(void) { return AVERROR(EAGAIN); }
static inline int photozoom_averror_eof(void) { return AVERROR_EOF; }

/* A growable memory file for libavformat: the MP4 muxer seeks back to patch sizes, so the sink
   keeps a position; the finished file is handed over only when it is whole. */
typedef struct {
    uint8_t *_Nullable data;
    int64_t size, capacity, position;
    int failed;
} photozoom_memory_file;

/* An AVIOContext writing into `file`, closed with photozoom_memory_file_close_io. */
AVIOContext *_Nullable photozoom_memory_file_open_io(const photozoom_av *_Nonnull av, photozoom_memory_file *_Nonnull file);
void photozoom_memory_file_close_io(const photozoom_av *_Nonnull av, AVIOContext *_Nullable *_Nonnull io);
#endif
