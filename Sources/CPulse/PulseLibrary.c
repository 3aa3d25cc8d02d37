#include "CPulse.h"
#include <pthread.h>

/* The soname of the ABI these headers describe. */
PHOTOZOOM_DEFINE_LOADER(photozoom_pulse, "libpulse-simple.so.0", PHOTOZOOM_PULSE_FUNCTIONS)
