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

/* Declares the table `type` of FUNCTIONS (an X-macro list of names, declared before): a struct of
   function pointers, one a name, typed as the functions are, and `type`_load, defined below. */
#define PHOTOZOOM_TABLE_MEMBER(name) __typeof__(name) *_Nonnull name;
#define PHOTOZOOM_DECLARE_TABLE(type, FUNCTIONS) \
    typedef struct { \
        FUNCTIONS(PHOTOZOOM_TABLE_MEMBER) \
    } type; \
    const type *_Nullable type##_load(const char *_Nullable *_Nonnull reason);

/* Defines `type` `type`_load(const char **reason): the table of FUNCTIONS (an X-macro list of names)
   from `soname`, loaded once from any thread; NULL when the library or a function is missing, with
   the loader's words in `reason`. The table is a struct of function pointers, one a name. */
#define PHOTOZOOM_LOADER_NAME(name) #name,
#define PHOTOZOOM_DEFINE_LOADER(type, soname, FUNCTIONS) \
    static type table; \
    static const type *loaded; \
    static char failure[512]; \
    static pthread_once_t once = PTHREAD_ONCE_INIT; \
    static const char *const names[] = { FUNCTIONS(PHOTOZOOM_LOADER_NAME) }; \
    _Static_assert(sizeof table == sizeof names / sizeof *names * sizeof(void *), "one function pointer a name"); \
    static void load(void) { \
        if (photozoom_dynamic_library_load(soname, names, (void **)&table, sizeof names / sizeof *names, failure, \
                                           sizeof failure) == 0) \
            loaded = &table; \
    } \
    const type *type##_load(const char **reason) { \
        pthread_once(&once, load); \
        *reason = loaded ? NULL : failure; \
        return loaded; \
    }
#endif
