#ifndef PHOTOZOOM_CCAIRO_SHIM_H
#define PHOTOZOOM_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-xlib.h>
#endif
