#ifndef PHOTOZOOM_CMALLOC_SHIM_H
#define PHOTOZOOM_CMALLOC_SHIM_H
#include <malloc.h>

/* glibc's mallopt(M_MMAP_THRESHOLD, bytes): a macro Swift cannot import. Nonzero on success. */
static inline int photozoom_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#endif
