#ifndef PHOTOZOOM_CXCB_SHIM_H
#define PHOTOZOOM_CXCB_SHIM_H
#include <X11/Xlib-xcb.h>
#include <xcb/present.h>
#include <xcb/xfixes.h>
#include <xcb/shm.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/memfd.h>

/* The extensions' descriptors are globals Swift would see as shared mutable state. */
static inline xcb_extension_t *photozoom_xcb_present(void) { return &xcb_present_id; }
static inline xcb_extension_t *photozoom_xcb_xfixes(void) { return &xcb_xfixes_id; }

/* An anonymous file for a frame shared with the server by descriptor (MIT-SHM 1.2); glibc declares
   memfd_create only under _GNU_SOURCE, which a module header should not set. -1 on failure. */
static inline int photozoom_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC); }
#endif
