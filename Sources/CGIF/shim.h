#ifndef PHOTOZOOM_CGIF_SHIM_H
#define PHOTOZOOM_CGIF_SHIM_H
#include <gif_lib.h>
#endif
