#ifndef PHOTOZOOM_CTHREADS_SHIM_H
#define PHOTOZOOM_CTHREADS_SHIM_H
#include <sys/prctl.h>

/* Names the calling thread as the kernel shows it (`top -H`, /proc/PID/task/TID/comm): 15 bytes, the rest cut.
   prctl(PR_SET_NAME): a macro and a variadic call Swift cannot import. Zero on success (EPERM in a confined decoder). */
static inline int photozoom_name_this_thread(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
#endif
