#include "CHEIF.h"
#include <libavcodec/avcodec.h>
#include <libheif/heif_plugin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* libheif's HEVC pictures decoded by FFmpeg's decoder, three times as fast as libde265 (a phone's 12 MP photo:
   110 ms of CPU against 345). libheif still reads the container, puts a grid's tiles together (a tile a thread)
   and applies its transformations; only the coded pictures come here. libavcodec alone is opened, not the rest
   of FFmpeg. */
#define PHOTOZOOM_HEVC_FUNCTIONS(X) \
    X(avcodec_find_decoder) X(avcodec_alloc_context3) X(avcodec_open2) X(avcodec_free_context) \
    X(avcodec_send_packet) X(avcodec_receive_frame) X(av_packet_alloc) X(av_packet_free) \
    X(av_frame_alloc) X(av_frame_free) X(av_malloc) X(av_free) X(av_log_set_level)
PHOTOZOOM_DECLARE_TABLE(photozoom_hevc, PHOTOZOOM_HEVC_FUNCTIONS)
PHOTOZOOM_DEFINE_LOADER(photozoom_hevc, "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR), PHOTOZOOM_HEVC_FUNCTIONS)

static const photozoom_hevc *av;
static const photozoom_heif *heif;

/* The most pictures decoded here at once, for the tests: a grid's tiles on several threads. */
static atomic_int decoding, most_at_once;

static void began_picture(void) {
    const int now = atomic_fetch_add(&decoding, 1) + 1;
    for (int most = atomic_load(&most_at_once); now > most && !atomic_compare_exchange_weak(&most_at_once, &most, now);) {}
}

int photozoom_heif_ffmpeg_most_at_once(void) { return atomic_load(&most_at_once); }

/* The coded picture as Annex B (start codes), as libavcodec takes it without a container. */
typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
} stream;

static const struct heif_error ok = { heif_error_Ok, heif_suberror_Unspecified, "Success" };

static struct heif_error failed(const char *message) {
    return (struct heif_error){ heif_error_Decoder_plugin_error, heif_suberror_Unspecified, message };
}

static const char *plugin_name(void) { return "FFmpeg HEVC decoder (PhotoZoomAnimator)"; }
static void plugin_nothing(void) {}
static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? 200 : 0; }

static struct heif_error new_decoder(void **decoder) {
    *decoder = calloc(1, sizeof(stream));
    return *decoder ? ok : failed("out of memory");
}

static void free_decoder(void *decoder) {
    stream *s = decoder;
    free(s->bytes);
    free(s);
}

static void set_strict_decoding(void *decoder, int flag) { (void)decoder; (void)flag; }

/* libheif gives the parameter sets, then the picture, as NAL units each after a 4-byte big-endian length. */
static struct heif_error push_data(void *decoder, const void *data, size_t size) {
    stream *s = decoder;
    const uint8_t *in = data;
    for (size_t at = 0; at < size;) {
        if (size - at < 4) return failed("a NAL unit's length is cut short");
        const size_t length = (size_t)in[at] << 24 | (size_t)in[at + 1] << 16 | (size_t)in[at + 2] << 8 | in[at + 3];
        at += 4;
        if (length > size - at) return failed("a NAL unit runs past its data");
        if (s->size + length + 4 + AV_INPUT_BUFFER_PADDING_SIZE > s->capacity) {
            size_t capacity = s->capacity ? s->capacity : 1 << 16;
            while (capacity < s->size + length + 4 + AV_INPUT_BUFFER_PADDING_SIZE) capacity *= 2;
            uint8_t *grown = realloc(s->bytes, capacity);
            if (!grown) return failed("out of memory");
            s->bytes = grown;
            s->capacity = capacity;
        }
        memcpy(s->bytes + s->size, (const uint8_t[]){ 0, 0, 0, 1 }, 4);
        memcpy(s->bytes + s->size + 4, in + at, length);
        s->size += length + 4;
        at += length;
    }
    return ok;
}

/* The frame's layout as libheif names it: its chroma and bits a sample; 0 for one not taken. */
static int layout(enum AVPixelFormat format, enum heif_chroma *chroma) {
    switch (format) {
    case AV_PIX_FMT_YUV420P: case AV_PIX_FMT_YUVJ420P: *chroma = heif_chroma_420; return 8;
    case AV_PIX_FMT_YUV422P: case AV_PIX_FMT_YUVJ422P: *chroma = heif_chroma_422; return 8;
    case AV_PIX_FMT_YUV444P: case AV_PIX_FMT_YUVJ444P: *chroma = heif_chroma_444; return 8;
    case AV_PIX_FMT_GRAY8: *chroma = heif_chroma_monochrome; return 8;
    case AV_PIX_FMT_YUV420P10LE: *chroma = heif_chroma_420; return 10;
    case AV_PIX_FMT_YUV422P10LE: *chroma = heif_chroma_422; return 10;
    case AV_PIX_FMT_YUV444P10LE: *chroma = heif_chroma_444; return 10;
    case AV_PIX_FMT_GRAY10LE: *chroma = heif_chroma_monochrome; return 10;
    case AV_PIX_FMT_YUV420P12LE: *chroma = heif_chroma_420; return 12;
    case AV_PIX_FMT_GRAY12LE: *chroma = heif_chroma_monochrome; return 12;
    default: return 0;
    }
}

/* The frame's planes copied into a libheif picture, with the stream's colour code points (as libheif's libde265
   plugin gives them; the file's `colr` box, when it has one, is put over them by libheif). */
static struct heif_error picture(const AVFrame *frame, struct heif_image **out) {
    enum heif_chroma chroma;
    const int bits = layout(frame->format, &chroma);
    if (!bits) return failed("FFmpeg decoded the HEVC picture in a layout not taken here");
    const int mono = chroma == heif_chroma_monochrome, planes = mono ? 1 : 3;
    struct heif_error error = heif->heif_image_create(frame->width, frame->height,
                                                      mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, out);
    if (error.code != heif_error_Ok) return error;
    const enum heif_channel channels[3] = { heif_channel_Y, heif_channel_Cb, heif_channel_Cr };
    for (int p = 0; p < planes; p++) {
        const int w = p == 0 || chroma == heif_chroma_444 ? frame->width : (frame->width + 1) / 2;
        const int h = p == 0 || chroma != heif_chroma_420 ? frame->height : (frame->height + 1) / 2;
        error = heif->heif_image_add_plane(*out, channels[p], w, h, bits);
        int stride = 0;
        uint8_t *to = error.code == heif_error_Ok ? heif->heif_image_get_plane(*out, channels[p], &stride) : NULL;
        if (!to) {
            heif->heif_image_release(*out);
            return error.code != heif_error_Ok ? error : failed("libheif gave no plane");
        }
        const size_t row = (size_t)w * (bits > 8 ? 2 : 1);
        for (int y = 0; y < h; y++) memcpy(to + (size_t)y * stride, frame->data[p] + (size_t)y * frame->linesize[p], row);
    }
    struct heif_color_profile_nclx *nclx = heif->heif_nclx_color_profile_alloc();
    if (nclx) {
        heif->heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)frame->color_primaries);
        heif->heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)frame->color_trc);
        heif->heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)frame->colorspace);
        nclx->full_range_flag = frame->color_range == AVCOL_RANGE_JPEG;
        heif->heif_image_set_nclx_color_profile(*out, nclx);
        heif->heif_nclx_color_profile_free(nclx);
    }
    return ok;
}

/* One picture, on the calling thread (libheif runs a grid's tiles on threads of its own). */
static struct heif_error decode_image(void *decoder, struct heif_image **out) {
    stream *s = decoder;
    began_picture();
    const AVCodec *codec = av->avcodec_find_decoder(AV_CODEC_ID_HEVC);
    AVCodecContext *context = codec ? av->avcodec_alloc_context3(codec) : NULL;
    AVPacket *packet = av->av_packet_alloc();
    AVFrame *frame = av->av_frame_alloc();
    struct heif_error result = failed("FFmpeg could not decode the HEVC picture");
    if (context && packet && frame && s->bytes) {
        context->thread_count = 1;
        memset(s->bytes + s->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
        packet->data = s->bytes;
        packet->size = (int)s->size;
        if (av->avcodec_open2(context, codec, NULL) == 0 && av->avcodec_send_packet(context, packet) == 0
            && av->avcodec_send_packet(context, NULL) == 0 && av->avcodec_receive_frame(context, frame) == 0) {
            result = picture(frame, out);
        }
    }
    av->av_frame_free(&frame);
    av->av_packet_free(&packet);
    av->avcodec_free_context(&context);
    atomic_fetch_sub(&decoding, 1);
    return result;
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = plugin_name,
    .init_plugin = plugin_nothing,
    .deinit_plugin = plugin_nothing,
    .does_support_format = supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = set_strict_decoding,
    .id_name = "photozoom-ffmpeg",
};

static pthread_once_t registered = PTHREAD_ONCE_INIT;
static int in_use;

static void register_plugin(void) {
    const char *reason;
    heif = photozoom_heif_load(&reason);
    av = heif ? photozoom_hevc_load(&reason) : NULL;
    if (!av || !av->avcodec_find_decoder(AV_CODEC_ID_HEVC)) return;
    av->av_log_set_level(AV_LOG_QUIET);
    in_use = heif->heif_register_decoder_plugin(&plugin).code == heif_error_Ok;
}

int photozoom_heif_use_ffmpeg(void) {
    pthread_once(&registered, register_plugin);
    return in_use;
}
