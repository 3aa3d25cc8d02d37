#include "CHEIF.h"
#include <errno.h>
#include <unistd.h>

static int64_t file_position(void *userdata) { return ((photozoom_heif_file *)userdata)->position; }

/* All of `size` bytes or a failure: libheif asks only for bytes it was told are there. */
static int file_read(void *data, size_t size, void *userdata) {
    photozoom_heif_file *file = userdata;
    size_t filled = 0;
    while (filled < size) {
        const ssize_t n = pread(file->fd, (uint8_t *)data + filled, size - filled, (off_t)(file->position + (int64_t)filled));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 1;
        filled += (size_t)n;
    }
    file->position += (int64_t)size;
    return 0;
}

static int file_seek(int64_t position, void *userdata) {
    photozoom_heif_file *file = userdata;
    if (position < 0 || position > file->size) return 1;
    file->position = position;
    return 0;
}

/* The file does not grow while it is read: what it lacks now it lacks for good. */
static enum heif_reader_grow_status file_wait_for_size(int64_t target_size, void *userdata) {
    return target_size <= ((photozoom_heif_file *)userdata)->size ? heif_reader_grow_status_size_reached
                                                                  : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader file_reader = { 1, file_position, file_read, file_seek, file_wait_for_size };

const struct heif_reader *photozoom_heif_file_reader(void) { return &file_reader; }
