#ifndef PHOTOZOOM_CX11_SHIM_H
#define PHOTOZOOM_CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xrandr.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// Function-like macros that Swift cannot import.
static inline void pz_XISetMask(unsigned char *mask, int event) { XISetMask(mask, event); }
static inline int pz_XIMaskLen(int event) { return XIMaskLen(event); }
static inline unsigned long pz_XGetPixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }
static inline int pz_XDestroyImage(XImage *image) { return XDestroyImage(image); }
#endif
