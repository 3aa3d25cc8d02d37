#include "CJXL.h"
#include <pthread.h>

PHOTOZOOM_DEFINE_LOADER(photozoom_jxl, "libjxl" PHOTOZOOM_JXL_SONAME_SUFFIX, PHOTOZOOM_JXL_FUNCTIONS)
