#ifndef PHOTOZOOM_CJXL_SHIM_H
#define PHOTOZOOM_CJXL_SHIM_H
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
#include <stdlib.h>

/* libjxl allocates through this: no single block may pass `limit` bytes, which the decoder raises
   once the picture's size is known (its planes are in proportion to its pixels). A file claiming
   more than it holds fails at the first block it has no room for. */
typedef struct {
    size_t limit;
} photozoom_jxl_budget;

static void *photozoom_jxl_alloc(void *opaque, size_t size) {
    return size <= ((photozoom_jxl_budget *)opaque)->limit ? malloc(size) : NULL;
}

static void photozoom_jxl_free(void *opaque, void *address) { (void)opaque; free(address); }
#endif
