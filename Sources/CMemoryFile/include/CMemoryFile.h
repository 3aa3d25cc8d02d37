#ifndef PHOTOZOOM_CMEMORYFILE_H
#define PHOTOZOOM_CMEMORYFILE_H

/* Memory files (memfd) and their seals, which glibc declares only under _GNU_SOURCE. */

/* A new memory file that can be sealed (close-on-exec); -1 with errno. */
int photozoom_memory_file(const char *name);
/* Seals a picture's memory file for the viewer: it can never shrink, grow, be mapped for writing again,
 * or have its seals changed. 0, or -1 with errno. */
int photozoom_seal_picture(int fd);
/* Whether `fd` carries at least the seals photozoom_seal_picture adds. */
int photozoom_is_sealed_picture(int fd);
/* Seals a file of bytes against any change at all (writing included). 0, or -1 with errno. */
int photozoom_seal_bytes(int fd);
/* Whether `fd` is a memory file sealed against writing. */
int photozoom_is_sealed_against_writing(int fd);

#endif
