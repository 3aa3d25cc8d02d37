#ifndef PHOTOZOOM_CPULSE_H
#define PHOTOZOOM_CPULSE_H
#include <pulse/simple.h>
#include <pulse/error.h>
#include "CDynamicLibrary.h"

/* PulseAudio's simple API, opened when a clip first plays sound (dlopen), not linked: a viewer that never plays one
   never loads it. PipeWire's pulse server answers it as PulseAudio does. pa_strerror is libpulse's, reached through
   libpulse-simple's own dependency. */
#define PHOTOZOOM_PULSE_FUNCTIONS(X) \
    X(pa_simple_new) X(pa_simple_write) X(pa_simple_get_latency) X(pa_simple_flush) X(pa_simple_free) X(pa_strerror)

PHOTOZOOM_DECLARE_TABLE(photozoom_pulse, PHOTOZOOM_PULSE_FUNCTIONS)
#endif
