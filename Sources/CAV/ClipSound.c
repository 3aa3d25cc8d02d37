#include "CAV.h"
#include "Demuxer.h"
#include <stdlib.h>
#include <string.h>

/* A clip open for its sound: the demuxer over the source (its own, beside the pictures'), the sound stream's
   decoder, and the resampler to what the sound server is given. */
struct photozoom_clip_sound {
    const photozoom_av *av;
    AVIOContext *io;
    AVFormatContext *format;
    AVCodecContext *decoder;
    AVPacket *packet;
    AVFrame *frame;
    SwrContext *resampler;
    int stream;
    int draining;
    /* The time of the first sample given, s, and the samples given since (a frame: one for each channel). */
    double first_seconds;
    int64_t frames_given;
    /* After a seek: the time asked for (s; -1 when none is), and the frames still to cut from the first sound. */
    double skip_before;
    int64_t cut_frames;
};

static int open_sound_decoder(photozoom_clip_sound *sound, const AVCodec *codec, char *reason, int size)
{
    const photozoom_av *av = sound->av;
    AVCodecParameters *parameters = sound->format->streams[sound->stream]->codecpar;
    if (!codec) { photozoom_say(reason, size, "no decoder for its sound", 0, av); return -1; }
    sound->decoder = av->avcodec_alloc_context3(codec);
    sound->packet = av->av_packet_alloc();
    sound->frame = av->av_frame_alloc();
    if (!sound->decoder || !sound->packet || !sound->frame) { photozoom_say(reason, size, "out of memory", 0, av); return -1; }
    int error = av->avcodec_parameters_to_context(sound->decoder, parameters);
    if (error >= 0) {
        sound->decoder->pkt_timebase = sound->format->streams[sound->stream]->time_base;
        error = av->avcodec_open2(sound->decoder, codec, NULL);
    }
    if (error < 0) { photozoom_say(reason, size, "its sound's decoder would not open", error, av); return -1; }
    AVChannelLayout in = { 0 }, out = { 0 };
    if (sound->decoder->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || sound->decoder->ch_layout.nb_channels <= 0)
        av->av_channel_layout_default(&in, sound->decoder->ch_layout.nb_channels > 0 ? sound->decoder->ch_layout.nb_channels : 2);
    else
        av->av_channel_layout_copy(&in, &sound->decoder->ch_layout);
    av->av_channel_layout_default(&out, PHOTOZOOM_SOUND_CHANNELS);
    error = av->swr_alloc_set_opts2(&sound->resampler, &out, AV_SAMPLE_FMT_S16, PHOTOZOOM_SOUND_RATE, &in,
                                    sound->decoder->sample_fmt, sound->decoder->sample_rate, 0, NULL);
    av->av_channel_layout_uninit(&in);
    if (error >= 0) error = av->swr_init(sound->resampler);
    if (error < 0) { photozoom_say(reason, size, "its sound could not be resampled", error, av); return -1; }
    return 0;
}

photozoom_clip_sound *photozoom_clip_sound_open(const photozoom_av *av, photozoom_clip_source *source, char *reason, int size)
{
    photozoom_clip_sound *sound = calloc(1, sizeof *sound);
    if (!sound) { photozoom_say(reason, size, "out of memory", 0, av); return NULL; }
    *sound = (photozoom_clip_sound){ .av = av, .stream = -1, .first_seconds = -1, .skip_before = -1 };
    if (photozoom_demuxer_open(av, source, &sound->io, &sound->format, reason, size) < 0) {
        photozoom_clip_sound_close(sound);
        return NULL;
    }
    const AVCodec *codec = NULL;
    sound->stream = av->av_find_best_stream(sound->format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
    if (sound->stream < 0) {
        photozoom_say(reason, size, "it has no sound", 0, av);
        photozoom_clip_sound_close(sound);
        return NULL;
    }
    if (open_sound_decoder(sound, codec, reason, size) < 0) {
        photozoom_clip_sound_close(sound);
        return NULL;
    }
    return sound;
}

/* Feeds the decoder the sound stream's next packet (the end of the file starts the drain); damaged packets are
   skipped. 0, or -1 at an error. */
static int feed_sound(photozoom_clip_sound *sound, char *reason, int size)
{
    const photozoom_av *av = sound->av;
    for (;;) {
        int error = av->av_read_frame(sound->format, sound->packet);
        if (error < 0) {
            sound->draining = 1;
            av->avcodec_send_packet(sound->decoder, NULL);
            return 0;
        }
        if (sound->packet->stream_index != sound->stream) { av->av_packet_unref(sound->packet); continue; }
        error = av->avcodec_send_packet(sound->decoder, sound->packet);
        av->av_packet_unref(sound->packet);
        if (error < 0 && error != AVERROR(EAGAIN) && error != AVERROR_INVALIDDATA) {
            photozoom_say(reason, size, "its sound would not decode", error, av);
            return -1;
        }
        return 0;
    }
}

/* The time of the decoded frame's first sample, s from the clip's start. */
static double seconds_of(photozoom_clip_sound *sound)
{
    AVStream *stream = sound->format->streams[sound->stream];
    int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    int64_t pts = sound->frame->best_effort_timestamp;
    return pts == AV_NOPTS_VALUE ? 0 : (pts - start) * av_q2d(stream->time_base);
}

int photozoom_clip_sound_next(photozoom_clip_sound *sound, int16_t *samples, int capacity, double *seconds, char *reason, int size)
{
    const photozoom_av *av = sound->av;
    for (int attempts = 0; attempts < 100000; attempts++) {
        int error = av->avcodec_receive_frame(sound->decoder, sound->frame);
        if (error == 0) {
            if (sound->first_seconds < 0) sound->first_seconds = seconds_of(sound);
            if (sound->skip_before >= 0) {
                /* After a seek: the frame holding the time asked for starts the sound, cut to it. */
                double at = seconds_of(sound), end = at + sound->frame->nb_samples / (double)sound->frame->sample_rate;
                if (end <= sound->skip_before) { av->av_frame_unref(sound->frame); continue; }
                sound->first_seconds = at;
                sound->frames_given = 0;
                sound->cut_frames = at < sound->skip_before ? (int64_t)((sound->skip_before - at) * PHOTOZOOM_SOUND_RATE) : 0;
                sound->skip_before = -1;
            }
            uint8_t *out[1] = { (uint8_t *)samples };
            int made = av->swr_get_out_samples(sound->resampler, sound->frame->nb_samples) > capacity ? -1
                : av->swr_convert(sound->resampler, out, capacity, (const uint8_t **)sound->frame->extended_data, sound->frame->nb_samples);
            av->av_frame_unref(sound->frame);
            if (made < 0) { photozoom_say(reason, size, "its sound could not be resampled", made, av); return -1; }
            if (made == 0) continue;
            *seconds = sound->first_seconds + sound->frames_given / (double)PHOTOZOOM_SOUND_RATE;
            sound->frames_given += made;
            if (sound->cut_frames > 0) {
                int cut = sound->cut_frames < made ? (int)sound->cut_frames : made;
                memmove(samples, samples + cut * PHOTOZOOM_SOUND_CHANNELS, (size_t)(made - cut) * PHOTOZOOM_SOUND_CHANNELS * sizeof *samples);
                sound->cut_frames -= cut;
                made -= cut;
                *seconds += cut / (double)PHOTOZOOM_SOUND_RATE;
                if (made == 0) continue;
            }
            return made;
        }
        if (error == AVERROR_EOF) return 0;
        if (error != AVERROR(EAGAIN)) { photozoom_say(reason, size, "its sound would not decode", error, av); return -1; }
        if (sound->draining) return 0;
        if (feed_sound(sound, reason, size) < 0) return -1;
    }
    photozoom_say(reason, size, "no sound came from it", 0, av);
    return -1;
}

int photozoom_clip_sound_seek(photozoom_clip_sound *sound, double seconds, char *reason, int size)
{
    const photozoom_av *av = sound->av;
    AVStream *stream = sound->format->streams[sound->stream];
    int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    int error = av->av_seek_frame(sound->format, sound->stream, start + (int64_t)(seconds / av_q2d(stream->time_base)), AVSEEK_FLAG_BACKWARD);
    if (error < 0) { photozoom_say(reason, size, "its sound could not be sought", error, av); return -1; }
    av->avcodec_flush_buffers(sound->decoder);
    sound->draining = 0;
    sound->skip_before = seconds;
    return 0;
}

void photozoom_clip_sound_close(photozoom_clip_sound *sound)
{
    if (!sound) return;
    const photozoom_av *av = sound->av;
    if (sound->resampler) av->swr_free(&sound->resampler);
    if (sound->frame) av->av_frame_free(&sound->frame);
    if (sound->packet) av->av_packet_free(&sound->packet);
    if (sound->decoder) av->avcodec_free_context(&sound->decoder);
    photozoom_demuxer_close(av, &sound->io, &sound->format);
    free(sound);
}
