#include "CHEIF.h"
#include <pthread.h>

/* The soname of the ABI these headers describe. */
PHOTOZOOM_DEFINE_LOADER(photozoom_heif, "libheif.so.1", PHOTOZOOM_HEIF_FUNCTIONS)
