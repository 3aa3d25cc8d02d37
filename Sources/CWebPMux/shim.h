#ifndef PHOTOZOOM_CWEBPMUX_SHIM_H
#define PHOTOZOOM_CWEBPMUX_SHIM_H
#include <webp/encode.h>
#include <webp/mux.h>
#endif
