#ifndef PHOTOZOOM_CXCB_SHIM_H
#define PHOTOZOOM_CXCB_SHIM_H
#include <X11/Xlib-xcb.h>
#include <xcb/present.h>
#include <xcb/xfixes.h>
#include <stdlib.h>

/* The extensions' descriptors are globals Swift would see as shared mutable state. */
static inline xcb_extension_t *photozoom_xcb_present(void) { return &xcb_present_id; }
static inline xcb_extension_t *photozoom_xcb_xfixes(void) { return &xcb_xfixes_id; }
#endif
