#include "CDynamicLibrary.h"
#include <dlfcn.h>
#include <stdio.h>

int photozoom_dynamic_library_load(const char *soname, const char *const *names, void **functions, size_t count,
                                   char *failure, size_t failure_size)
{
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, failure_size, "%s", dlerror());
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (!(functions[i] = dlsym(library, names[i]))) {
            snprintf(failure, failure_size, "%s has no %s", soname, names[i]);
            return -1;
        }
    }
    return 0;
}
