#ifndef PHOTOZOOM_CIMAGEQUANT_SHIM_H
#define PHOTOZOOM_CIMAGEQUANT_SHIM_H
#include <libimagequant.h>
#endif
