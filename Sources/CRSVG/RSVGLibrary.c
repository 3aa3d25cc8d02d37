#include "CRSVG.h"
#include <pthread.h>

/* The soname of librsvg 2.x, whose API CRSVG.h declares. */
PHOTOZOOM_DEFINE_LOADER(photozoom_rsvg, "librsvg-2.so.2", PHOTOZOOM_RSVG_FUNCTIONS)
