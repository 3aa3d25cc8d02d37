#ifndef PHOTOZOOM_CMALLOC_SHIM_H
#define PHOTOZOOM_CMALLOC_SHIM_H
#include <malloc.h>

/* glibc's mallopt(M_MMAP_THRESHOLD, bytes): a macro Swift cannot import. Nonzero on success. */
static inline int photozoom_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
/* mallopt(M_TRIM_THRESHOLD, bytes): free memory at the heap's top kept up to this much. Nonzero on success. */
static inline int photozoom_malloc_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
#endif
