#include "CHEIF.h"
#include "CDynamicLibrary.h"
#include <pthread.h>

static photozoom_heif table;
static const photozoom_heif *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define PHOTOZOOM_HEIF_NAME(name) #name,
static const char *const names[] = { PHOTOZOOM_HEIF_FUNCTIONS(PHOTOZOOM_HEIF_NAME) };
#undef PHOTOZOOM_HEIF_NAME

_Static_assert(sizeof table == sizeof names / sizeof *names * sizeof(void *), "one function pointer a name");

static void load(void)
{
    /* The soname of the ABI these headers describe. */
    if (photozoom_dynamic_library_load("libheif.so.1", names, (void **)&table, sizeof names / sizeof *names,
                                       failure, sizeof failure) == 0)
        loaded = &table;
}

const photozoom_heif *photozoom_heif_load(const char **reason)
{
    pthread_once(&once, load);
    *reason = loaded ? NULL : failure;
    return loaded;
}
