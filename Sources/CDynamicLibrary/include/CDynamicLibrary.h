#ifndef PHOTOZOOM_CDYNAMICLIBRARY_H
#define PHOTOZOOM_CDYNAMICLIBRARY_H
#include <stddef.h>

/* Opens the shared library `soname` (once per process; it is never closed) and looks up `count`
   functions by `names`, storing each in `functions` in order. Returns 0, or -1 with the loader's
   words in `failure`. For the codecs a viewer needs only when it meets their files: linked, their
   libraries would cost every launch their loading time and memory. */
int photozoom_dynamic_library_load(const char *_Nonnull soname, const char *_Nonnull const *_Nonnull names,
                                   void *_Nullable *_Nonnull functions, size_t count, char *_Nonnull failure,
                                   size_t failure_size);
#endif
