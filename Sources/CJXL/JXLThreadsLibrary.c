#include "CJXL.h"
#include <pthread.h>

PHOTOZOOM_DEFINE_LOADER(photozoom_jxl_threads, "libjxl_threads" PHOTOZOOM_JXL_SONAME_SUFFIX, PHOTOZOOM_JXL_THREADS_FUNCTIONS)
