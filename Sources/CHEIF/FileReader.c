#include "CHEIF.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct photozoom_heif_file {
    int fd;
    int64_t position, size;
    /* The bytes last read ahead, from window_start: what the small reads of box headers are served from. */
    int64_t window_start, window_length;
    uint8_t window[16384];
};

photozoom_heif_file *photozoom_heif_file_new(int fd, int64_t size) {
    photozoom_heif_file *file = calloc(1, sizeof *file);
    if (file) {
        file->fd = fd;
        file->size = size;
    }
    return file;
}

void photozoom_heif_file_free(photozoom_heif_file *file) { free(file); }

static int64_t file_position(void *userdata) { return ((photozoom_heif_file *)userdata)->position; }

/* `size` bytes at `at` straight from the file; 0 on success. */
static int read_exactly(int fd, uint8_t *into, size_t size, int64_t at) {
    for (size_t filled = 0; filled < size;) {
        const ssize_t n = pread(fd, into + filled, size - filled, (off_t)(at + (int64_t)filled));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 1;
        filled += (size_t)n;
    }
    return 0;
}

/* All of `size` bytes or a failure: libheif asks only for bytes it was told are there. It reads a box's header a
   few bytes at a time (a thousand reads for a phone's `meta`), so small reads come from the window of the file last
   read; a large one (an item's data) goes straight to its place. */
static int file_read(void *data, size_t size, void *userdata) {
    photozoom_heif_file *file = userdata;
    const int64_t at = file->position;
    if (size > sizeof file->window / 4) {
        if (read_exactly(file->fd, data, size, at)) return 1;
    } else {
        if (at < file->window_start || at + (int64_t)size > file->window_start + file->window_length) {
            const int64_t left = file->size - at;
            const size_t length = left < (int64_t)sizeof file->window ? (size_t)(left > 0 ? left : 0) : sizeof file->window;
            if (length < size || read_exactly(file->fd, file->window, length, at)) return 1;
            file->window_start = at;
            file->window_length = (int64_t)length;
        }
        memcpy(data, file->window + (at - file->window_start), size);
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
