#include "CAV.h"
#include "Demuxer.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A clip open for its pictures: the demuxer over the source, the picture stream's decoder, and the scaler
   of the last size asked for. */
struct photozoom_clip {
    const photozoom_av *av;
    photozoom_clip_source *source;
    photozoom_clip_facts *facts;
    AVIOContext *io;
    AVFormatContext *format;
    AVCodecContext *decoder;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *scaler;
    int scaler_key[6];
    /* An HDR clip's tone map. */
    photozoom_clip_tone *tone;
    /* The scaler's planes (G, B, R: one picture's at the size asked for) when it writes planes: an HDR picture's 16-bit
       light, or a shrunk picture's 8 bits. swscale writes planes three to seven times faster than packed RGB with full
       chroma (a 4K picture shrunk for a 1080p window: 6 ms, not 17), and they are packed here in one more. */
    uint8_t *planes;
    size_t planes_size;
    int stream;
    int draining;
    /* After a seek: pictures before this time (s) are decoded and passed over; -1 when none are. */
    double skip_before;
};

static void copy_tag(const photozoom_av *av, AVDictionary *tags, const char *key, char *into, size_t size)
{
    AVDictionaryEntry *entry = av->av_dict_get(tags, key, NULL, 0);
    if (entry && !*into) snprintf(into, size, "%s", entry->value);
}

/* Clockwise degrees that show the stream upright, from its display matrix (counter-clockwise in FFmpeg). */
static int rotation_of(const photozoom_av *av, AVStream *stream)
{
#if LIBAVFORMAT_VERSION_MAJOR < 61
    const int32_t *matrix = (const int32_t *)av->av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
#else
    const AVPacketSideData *side = av->av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                               stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    const int32_t *matrix = side ? (const int32_t *)side->data : NULL;
#endif
    if (!matrix) return 0;
    double degrees = -av->av_display_rotation_get(matrix);
    if (degrees != degrees) return 0;   /* NaN: a matrix that is no rotation */
    int quarter = (int)((degrees < 0 ? degrees - 45 : degrees + 45) / 90);
    return ((quarter % 4) + 4) % 4 * 90;
}

static void read_facts(photozoom_clip *clip, AVStream *stream)
{
    const photozoom_av *av = clip->av;
    photozoom_clip_facts *f = clip->facts;
    AVCodecParameters *p = stream->codecpar;
    memset(f, 0, sizeof *f);
    f->width = p->width;
    f->height = p->height;
    AVRational aspect = p->sample_aspect_ratio;
    if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) f->width = (int)((int64_t)p->width * aspect.num / aspect.den);
    f->rotation = rotation_of(av, stream);
    f->primaries = p->color_primaries;
    f->transfer = p->color_trc;
    if (clip->format->duration > 0) f->duration = clip->format->duration / (double)AV_TIME_BASE;
    else if (stream->duration > 0) f->duration = stream->duration * av_q2d(stream->time_base);
    if (stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0) f->frame_rate = av_q2d(stream->avg_frame_rate);
    f->has_audio = av->av_find_best_stream(clip->format, AVMEDIA_TYPE_AUDIO, -1, -1, NULL, 0) >= 0;
    snprintf(f->codec, sizeof f->codec, "%s", av->avcodec_get_name(p->codec_id));
    AVDictionary *tags = clip->format->metadata;
    copy_tag(av, tags, "com.apple.quicktime.creationdate", f->creation, sizeof f->creation);
    copy_tag(av, tags, "creation_time", f->creation, sizeof f->creation);
    copy_tag(av, stream->metadata, "creation_time", f->creation, sizeof f->creation);
    char make[48] = "", model[48] = "";
    copy_tag(av, tags, "com.apple.quicktime.make", make, sizeof make);
    copy_tag(av, tags, "com.apple.quicktime.model", model, sizeof model);
    copy_tag(av, tags, "com.android.manufacturer", make, sizeof make);
    copy_tag(av, tags, "com.android.model", model, sizeof model);
    copy_tag(av, tags, "make", make, sizeof make);
    copy_tag(av, tags, "model", model, sizeof model);
    snprintf(f->camera, sizeof f->camera, "%s%s%s", make, *make && *model ? " " : "", model);
}

static int open_decoder(photozoom_clip *clip, const AVCodec *codec, int threads, char *reason, int size)
{
    const photozoom_av *av = clip->av;
    AVStream *stream = clip->format->streams[clip->stream];
    if (!codec) { photozoom_say(reason, size, "no decoder for its pictures", 0, av); return -1; }
    clip->decoder = av->avcodec_alloc_context3(codec);
    if (!clip->decoder) { photozoom_say(reason, size, "out of memory", 0, av); return -1; }
    int error = av->avcodec_parameters_to_context(clip->decoder, stream->codecpar);
    if (error >= 0) {
        clip->decoder->pkt_timebase = stream->time_base;
        /* Its threads take the decoder process's priority, below the viewer's. */
        clip->decoder->thread_count = threads;
        clip->decoder->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
        error = av->avcodec_open2(clip->decoder, codec, NULL);
    }
    if (error < 0) { photozoom_say(reason, size, "its decoder would not open", error, av); return -1; }
    clip->packet = av->av_packet_alloc();
    clip->frame = av->av_frame_alloc();
    if (!clip->packet || !clip->frame) { photozoom_say(reason, size, "out of memory", 0, av); return -1; }
    return 0;
}

photozoom_clip *photozoom_clip_open(const photozoom_av *av, photozoom_clip_source *source, photozoom_clip_facts *facts,
                                    int threads, char *reason, int size)
{
    photozoom_clip *clip = calloc(1, sizeof *clip);
    if (!clip) { photozoom_say(reason, size, "out of memory", 0, av); return NULL; }
    *clip = (photozoom_clip){ .av = av, .source = source, .facts = facts, .stream = -1, .skip_before = -1 };
    if (photozoom_demuxer_open(av, source, &clip->io, &clip->format, reason, size) < 0) {
        photozoom_clip_close(clip);
        return NULL;
    }
    const AVCodec *codec = NULL;
    clip->stream = av->av_find_best_stream(clip->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (clip->stream < 0 || clip->format->streams[clip->stream]->codecpar->width <= 0) {
        photozoom_say(reason, size, "it holds no pictures", 0, av);
        photozoom_clip_close(clip);
        return NULL;
    }
    read_facts(clip, clip->format->streams[clip->stream]);
    if (open_decoder(clip, codec, threads > 0 ? threads : 1, reason, size) < 0) {
        photozoom_clip_close(clip);
        return NULL;
    }
    return clip;
}

/* FFmpeg's colour spaces that swscale has coefficients for; an unstated one is BT.709 from HD up, else BT.601. */
static int coefficients_of(const AVFrame *frame)
{
    switch (frame->colorspace) {
    case AVCOL_SPC_BT709: return SWS_CS_ITU709;
    case AVCOL_SPC_FCC: return SWS_CS_FCC;
    case AVCOL_SPC_BT470BG: case AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601;
    case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M;
    case AVCOL_SPC_BT2020_NCL: case AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020;
    default: return frame->height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601;
    }
}

/* How the scaler writes a picture: packed BGRA at once (a picture not shrunk, where swscale's unscaled path is fastest),
   or planes packed after (one shrunk to half or less), or 16-bit planes tone-mapped after (an HDR clip's). */
enum output { PACKED, PLANES, LIGHT };

static enum output output_of(const photozoom_clip *clip, int width)
{
    return clip->tone ? LIGHT : width * 2 <= clip->frame->width ? PLANES : PACKED;
}

static int open_scaler(photozoom_clip *clip, int width, int height)
{
    const photozoom_av *av = clip->av;
    AVFrame *frame = clip->frame;
    enum output output = output_of(clip, width);
    int key[6] = { frame->width, frame->height, frame->format, width, height, output };
    if (clip->scaler && memcmp(key, clip->scaler_key, sizeof key) == 0) return 0;
    if (clip->scaler) av->sws_freeContext(clip->scaler);
    /* Chroma at full resolution keeps a grey grey; SWS_ACCURATE_RND would tint it (5, 3, 5) and cost a 1080p picture
       3 ms more, with both 15 ms: a 30 fps clip's decoder fell behind. */
    enum AVPixelFormat format = output == LIGHT ? AV_PIX_FMT_GBRP16 : output == PLANES ? AV_PIX_FMT_GBRP : AV_PIX_FMT_BGRA;
    int shrinks = width * 2 <= frame->width;
    clip->scaler = av->sws_getContext(frame->width, frame->height, frame->format, width, height, format,
                                      (shrinks ? SWS_AREA : SWS_BICUBIC) | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!clip->scaler) return -1;
    memcpy(clip->scaler_key, key, sizeof key);
    int full = frame->color_range == AVCOL_RANGE_JPEG;
    av->sws_setColorspaceDetails(clip->scaler, av->sws_getCoefficients(coefficients_of(frame)), full,
                                 av->sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    return 0;
}

static inline uint32_t encoded(const photozoom_clip_tone *tone, float light)
{
    int index = (int)(light * 4095 + 0.5f);
    return tone->encode[index < 0 ? 0 : index > 4095 ? 4095 : index];
}

/* The scaler's 16-bit planes, in the clip's HDR transfer and primaries, as opaque 8-bit sRGB BGRA. */
static void tone_map(const photozoom_clip_tone *tone, const uint16_t *light, int width, int height, uint8_t *pixels, int stride)
{
    const float *m = tone->matrix;
    size_t plane = (size_t)width * height;
    for (int y = 0; y < height; y++) {
        const uint16_t *green = light + (size_t)y * width, *blue = green + plane, *red = blue + plane;
        uint32_t *out = (uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            float r = tone->curve[red[x] >> 4], g = tone->curve[green[x] >> 4], b = tone->curve[blue[x] >> 4];
            out[x] = 0xFF000000u | encoded(tone, m[0] * r + m[1] * g + m[2] * b) << 16
                     | encoded(tone, m[3] * r + m[4] * g + m[5] * b) << 8 | encoded(tone, m[6] * r + m[7] * g + m[8] * b);
        }
    }
}

/* The scaler's 8-bit planes as opaque BGRA. */
static void pack(const uint8_t *planes, int width, int height, uint8_t *pixels, int stride)
{
    size_t plane = (size_t)width * height;
    for (int y = 0; y < height; y++) {
        const uint8_t *green = planes + (size_t)y * width, *blue = green + plane, *red = blue + plane;
        uint32_t *out = (uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) out[x] = 0xFF000000u | (uint32_t)red[x] << 16 | (uint32_t)green[x] << 8 | blue[x];
    }
}

static int convert(photozoom_clip *clip, uint8_t *pixels, int width, int height, int stride)
{
    const photozoom_av *av = clip->av;
    AVFrame *frame = clip->frame;
    if (open_scaler(clip, width, height) < 0) return -1;
    enum output output = output_of(clip, width);
    uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    int strides[4] = { stride, 0, 0, 0 };
    if (output != PACKED) {
        size_t sample = output == LIGHT ? 2 : 1, size = (size_t)width * height * 3 * sample;
        if (size > clip->planes_size) {
            free(clip->planes);
            clip->planes = malloc(size);
            clip->planes_size = clip->planes ? size : 0;
            if (!clip->planes) return -1;
        }
        for (int i = 0; i < 3; i++) {
            planes[i] = clip->planes + (size_t)i * width * height * sample;
            strides[i] = width * (int)sample;
        }
    }
    if (av->sws_scale(clip->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides) <= 0) return -1;
    if (output == LIGHT) tone_map(clip->tone, (const uint16_t *)clip->planes, width, height, pixels, stride);
    if (output == PLANES) pack(clip->planes, width, height, pixels, stride);
    return 0;
}

int photozoom_clip_set_tone(photozoom_clip *clip, const photozoom_clip_tone *tone)
{
    if (!clip->tone) clip->tone = malloc(sizeof *clip->tone);
    if (!clip->tone) return -1;
    *clip->tone = *tone;
    return 0;
}

/* Feeds the decoder its stream's next packet (the end of the file starts the drain). 0, or -1 at an error. */
static int feed(photozoom_clip *clip, char *reason, int size)
{
    const photozoom_av *av = clip->av;
    for (;;) {
        int error = av->av_read_frame(clip->format, clip->packet);
        if (error < 0) {
            /* The file ended, whole or cut short: the decoder gives what it holds. */
            if (error != AVERROR_EOF || clip->source->sought_past_end) clip->facts->truncated = 1;
            clip->draining = 1;
            /* With frame threads a damaged last packet (a file cut short) answers the flush: asked again, it drains. */
            int drained = AVERROR_INVALIDDATA;
            for (int tries = 0; tries < 3 && drained == AVERROR_INVALIDDATA; tries++) {
                drained = av->avcodec_send_packet(clip->decoder, NULL);
                if (drained == AVERROR_INVALIDDATA) clip->facts->truncated = 1;
            }
            if (drained < 0 && drained != AVERROR_EOF) { photozoom_say(reason, size, "its last pictures would not decode", drained, av); return -1; }
            return 0;
        }
        if (clip->packet->stream_index != clip->stream) { av->av_packet_unref(clip->packet); continue; }
        error = av->avcodec_send_packet(clip->decoder, clip->packet);
        av->av_packet_unref(clip->packet);
        /* A damaged packet is skipped; the decoder carries on from the next. */
        if (error < 0 && error != AVERROR(EAGAIN) && error != AVERROR_INVALIDDATA) { photozoom_say(reason, size, "its pictures would not decode", error, av); return -1; }
        return 0;
    }
}

int photozoom_clip_next_picture(photozoom_clip *clip, uint8_t *pixels, int width, int height, int stride, double *seconds,
                                char *reason, int size)
{
    const photozoom_av *av = clip->av;
    for (int attempts = 0; attempts < 100000; attempts++) {
        int error = av->avcodec_receive_frame(clip->decoder, clip->frame);
        if (error == 0) {
            AVStream *stream = clip->format->streams[clip->stream];
            int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
            int64_t pts = clip->frame->best_effort_timestamp;
            *seconds = pts == AV_NOPTS_VALUE ? 0 : (pts - start) * av_q2d(stream->time_base);
            if (*seconds < clip->skip_before) { av->av_frame_unref(clip->frame); continue; }
            clip->skip_before = -1;
            int converted = convert(clip, pixels, width, height, stride);
            av->av_frame_unref(clip->frame);
            if (converted < 0) { photozoom_say(reason, size, "its picture could not be converted", 0, av); return -1; }
            return 1;
        }
        if (error == AVERROR_EOF) return 0;
        if (error != AVERROR(EAGAIN)) { photozoom_say(reason, size, "its pictures would not decode", error, av); return -1; }
        if (clip->draining) return 0;
        if (feed(clip, reason, size) < 0) return -1;
    }
    photozoom_say(reason, size, "no picture came from it", 0, av);
    return -1;
}

int photozoom_clip_seek(photozoom_clip *clip, double seconds, char *reason, int size)
{
    const photozoom_av *av = clip->av;
    AVStream *stream = clip->format->streams[clip->stream];
    int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    int64_t target = start + (int64_t)(seconds / av_q2d(stream->time_base));
    /* To the key picture at or before it; those between are decoded and passed over. */
    int error = av->av_seek_frame(clip->format, clip->stream, target, AVSEEK_FLAG_BACKWARD);
    if (error < 0) { photozoom_say(reason, size, "it could not be sought", error, av); return -1; }
    av->avcodec_flush_buffers(clip->decoder);
    clip->draining = 0;
    /* Half a picture early: a picture whose time is a rounding under the one asked for is it. */
    double half = clip->facts->frame_rate > 0 ? 0.5 / clip->facts->frame_rate : 0.01;
    clip->skip_before = seconds - half;
    return 0;
}

void photozoom_clip_close(photozoom_clip *clip)
{
    if (!clip) return;
    const photozoom_av *av = clip->av;
    if (clip->scaler) av->sws_freeContext(clip->scaler);
    free(clip->tone);
    free(clip->planes);
    if (clip->frame) av->av_frame_free(&clip->frame);
    if (clip->packet) av->av_packet_free(&clip->packet);
    if (clip->decoder) av->avcodec_free_context(&clip->decoder);
    photozoom_demuxer_close(av, &clip->io, &clip->format);
    free(clip);
}
