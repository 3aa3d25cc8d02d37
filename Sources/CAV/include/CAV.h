#ifndef PHOTOZOOM_CAV_H
#define PHOTOZOOM_CAV_H
#include <errno.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/* FFmpeg is opened on first use (dlopen), not linked: its five libraries pull in about a hundred
   more (x264, x265, every codec, TLS), which cost every viewer about 20 MiB of memory and their
   loading time at launch, though only an MP4 recording and a decoder of clips need them. These are
   the functions the MP4 encoder and the clip decoder call through the table, each with the library
   that exports it. */
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
    X(swscale, sws_setColorspaceDetails) X(swscale, sws_getCoefficients) \
    X(avutil, av_dict_get) X(avutil, av_display_rotation_get) \
    X(avcodec, avcodec_find_decoder) X(avcodec, avcodec_parameters_to_context) X(avcodec, avcodec_send_packet) \
    X(avcodec, avcodec_receive_frame) X(avcodec, av_packet_unref) X(avcodec, avcodec_get_name) \
    X(avformat, avformat_alloc_context) X(avformat, avformat_open_input) X(avformat, avformat_find_stream_info) \
    X(avformat, av_find_best_stream) X(avformat, av_read_frame) X(avformat, avformat_close_input) \
    X(avutil, av_channel_layout_default) X(avutil, av_channel_layout_copy) X(avutil, av_channel_layout_uninit) \
    X(swresample, swr_alloc_set_opts2) X(swresample, swr_init) X(swresample, swr_convert) X(swresample, swr_free) \
    X(swresample, swr_get_out_samples) X(avformat, av_seek_frame) X(avcodec, avcodec_flush_buffers) \
    PHOTOZOOM_AV_SIDE_DATA(X)

/* A stream's display matrix (a phone held upright): FFmpeg 6.1 moved it into the codec parameters. */
#if LIBAVFORMAT_VERSION_MAJOR < 61
#define PHOTOZOOM_AV_SIDE_DATA(X) X(avformat, av_stream_get_side_data)
#else
#define PHOTOZOOM_AV_SIDE_DATA(X) X(avcodec, av_packet_side_data_get)
#endif

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

/* Where a clip's bytes are read from: a descriptor (read in place with pread, never whole), or bytes in memory. */
typedef struct {
    int fd;
    const uint8_t *_Nullable data;
    /* `start`: where the clip begins in the file (a Motion Photo's movie, after its JPEG); `size` counts from there. */
    int64_t start, size, position;
    int sought_past_end;   /* the demuxer looked for bytes after the file's end: it was cut short */
} photozoom_clip_source;

/* What a clip says of itself. */
typedef struct {
    int width, height;              /* the picture as stored, px, with its sample aspect applied */
    int rotation;                   /* clockwise degrees to show it upright: 0, 90, 180 or 270 */
    double duration;                /* s; 0 when unknown */
    double frame_rate;              /* frames a second; 0 when unknown */
    int has_audio;
    char codec[32];                 /* "h264", "hevc", "vp9", "av1" */
    char creation[64];              /* QuickTime's creationdate (with its zone), else creation_time; "" */
    char camera[96];                /* com.apple.quicktime.make and model, or the model alone; "" */
    int truncated;                  /* the file ended before the picture's stream did */
    int primaries, transfer;        /* ITU-T H.273 code points (FFmpeg's are the same numbers); 2: unstated */
} photozoom_clip_facts;

/* How an HDR clip's pictures are brought to SDR, as the caller's colour code says: `curve` takes a 12-bit code of the
   clip's transfer to relative light (1: SDR white, brighter rolled off), `matrix` (row-major) takes that light from the
   clip's primaries to sRGB's, and `encode` takes 12-bit linear sRGB light to its 8-bit sRGB code. */
typedef struct {
    float curve[4096];
    float matrix[9];
    uint8_t encode[4096];
} photozoom_clip_tone;

typedef struct photozoom_clip photozoom_clip;

/* Opens the clip in `source` (which must outlive it) and reads its facts; NULL with `reason` in words when it is
   not one FFmpeg can read, or holds no picture. `threads`: the decoder's frame threads (1 for a poster; a clip
   that plays takes the cores: a 4K HEVC picture is 19 ms on one). */
photozoom_clip *_Nullable photozoom_clip_open(const photozoom_av *_Nonnull av, photozoom_clip_source *_Nonnull source,
                                              photozoom_clip_facts *_Nonnull facts, int threads, char *_Nonnull reason,
                                              int reason_size);

/* Decodes the clip's next picture into `pixels` (BGRA, premultiplied, opaque: Cairo's ARGB32) scaled to
   width x height as stored, its time in `seconds`. 1 for a picture, 0 at the end, -1 for an error (`reason`);
   a file that ends early sets `facts->truncated`. */
int photozoom_clip_next_picture(photozoom_clip *_Nonnull clip, uint8_t *_Nonnull pixels, int width, int height, int stride,
                                double *_Nonnull seconds, char *_Nonnull reason, int reason_size);

/* From now on its pictures are tone-mapped with (a copy of) `tone`; 0, or -1 out of memory. */
int photozoom_clip_set_tone(photozoom_clip *_Nonnull clip, const photozoom_clip_tone *_Nonnull tone);

/* To the picture at `seconds` (the next one given is the first whose time is not before it); 0, or -1 with `reason`. */
int photozoom_clip_seek(photozoom_clip *_Nonnull clip, double seconds, char *_Nonnull reason, int reason_size);

void photozoom_clip_close(photozoom_clip *_Nullable clip);

/* A clip's sound as the sound server is given it: 16-bit samples, interleaved, two channels at 48 kHz. */
#define PHOTOZOOM_SOUND_RATE 48000
#define PHOTOZOOM_SOUND_CHANNELS 2

typedef struct photozoom_clip_sound photozoom_clip_sound;

/* Opens the sound of the clip in `source` (which must outlive it, and is this one's alone); NULL with `reason` when it
   has none, or it cannot be decoded. */
photozoom_clip_sound *_Nullable photozoom_clip_sound_open(const photozoom_av *_Nonnull av, photozoom_clip_source *_Nonnull source,
                                                          char *_Nonnull reason, int reason_size);

/* Decodes the next stretch of sound into `samples` (room for `capacity` frames of PHOTOZOOM_SOUND_CHANNELS samples), the
   time of its first in `seconds`. The frames written; 0 at the end; -1 for an error (`reason`). */
int photozoom_clip_sound_next(photozoom_clip_sound *_Nonnull sound, int16_t *_Nonnull samples, int capacity,
                              double *_Nonnull seconds, char *_Nonnull reason, int reason_size);

/* To the sound at `seconds`: the next piece given starts there. 0, or -1 with `reason`. */
int photozoom_clip_sound_seek(photozoom_clip_sound *_Nonnull sound, double seconds, char *_Nonnull reason, int reason_size);

void photozoom_clip_sound_close(photozoom_clip_sound *_Nullable sound);
#endif
