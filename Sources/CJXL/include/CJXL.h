#ifndef PHOTOZOOM_CJXL_H
#define PHOTOZOOM_CJXL_H
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
#include <jxl/version.h>
#include <stdlib.h>
#include "CDynamicLibrary.h"

/* libjxl is opened on first use (dlopen), not linked: loading it (with libhwy, which times its clock
   when it loads) cost every launch 4.6 ms, though only JPEG XL files need it. These are the functions
   the JPEG XL decoder calls through the tables. */
#define PHOTOZOOM_JXL_FUNCTIONS(X) \
    X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSetParallelRunner) X(JxlDecoderSubscribeEvents) \
    X(JxlDecoderSetInput) X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderSetPreferredColorProfile) X(JxlDecoderImageOutBufferSize) X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderGetICCProfileSize) X(JxlDecoderGetColorAsICCProfile) X(JxlColorEncodingSetToSRGB)
#define PHOTOZOOM_JXL_THREADS_FUNCTIONS(X) \
    X(JxlThreadParallelRunner) X(JxlThreadParallelRunnerCreate) X(JxlThreadParallelRunnerDestroy) \
    X(JxlThreadParallelRunnerDefaultNumWorkerThreads)

/* The sonames of the ABI these headers describe: libjxl.so.0.N before 1.0, libjxl.so.N after. */
#define PHOTOZOOM_JXL_STRING(x) #x
#define PHOTOZOOM_JXL_VERSION_STRING(x) PHOTOZOOM_JXL_STRING(x)
#if JPEGXL_MAJOR_VERSION == 0
#define PHOTOZOOM_JXL_SONAME_SUFFIX ".so.0." PHOTOZOOM_JXL_VERSION_STRING(JPEGXL_MINOR_VERSION)
#else
#define PHOTOZOOM_JXL_SONAME_SUFFIX ".so." PHOTOZOOM_JXL_VERSION_STRING(JPEGXL_MAJOR_VERSION)
#endif

/* The tables, loaded once each (from any thread); NULL when a library or a function is missing, with
   the loader's words in `reason`. */
PHOTOZOOM_DECLARE_TABLE(photozoom_jxl, PHOTOZOOM_JXL_FUNCTIONS)
PHOTOZOOM_DECLARE_TABLE(photozoom_jxl_threads, PHOTOZOOM_JXL_THREADS_FUNCTIONS)

/* libjxl allocates through this: no single block may pass `limit` bytes, which the decoder raises
   once the picture's size is known (its planes are in proportion to its pixels). A file claiming
   more than it holds fails at the first block it has no room for. */
typedef struct {
    size_t limit;
} photozoom_jxl_budget;

static void *_Nullable photozoom_jxl_alloc(void *_Nullable opaque, size_t size) {
    return size <= ((photozoom_jxl_budget *)opaque)->limit ? malloc(size) : NULL;
}

static void photozoom_jxl_free(void *_Nullable opaque, void *_Nullable address) { (void)opaque; free(address); }
#endif
