#ifndef PHOTOZOOM_CWEBPDEMUX_SHIM_H
#define PHOTOZOOM_CWEBPDEMUX_SHIM_H
#include <webp/demux.h>
#endif
