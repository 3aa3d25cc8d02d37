#ifndef PHOTOZOOM_DEMUXER_H
#define PHOTOZOOM_DEMUXER_H
#include "CAV.h"

/* What the clip's pictures and its sound share: a demuxer over a photozoom_clip_source, read in place. */

/* Opens `source` (which must outlive it) and reads its streams' facts into *format; 0, or -1 with `reason`. */
int photozoom_demuxer_open(const photozoom_av *av, photozoom_clip_source *source, AVIOContext **io,
                           AVFormatContext **format, char *reason, int size);
void photozoom_demuxer_close(const photozoom_av *av, AVIOContext **io, AVFormatContext **format);

/* `what`, and FFmpeg's words for `error` when it is one, in `reason`. */
void photozoom_say(char *reason, int size, const char *what, int error, const photozoom_av *av);
#endif
