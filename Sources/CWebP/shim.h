#ifndef PHOTOZOOM_CWEBP_SHIM_H
#define PHOTOZOOM_CWEBP_SHIM_H
#include <webp/decode.h>
#endif
