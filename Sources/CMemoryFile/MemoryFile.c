#define _GNU_SOURCE
#include "CMemoryFile.h"

#include <fcntl.h>
#include <sys/mman.h>

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

static const int picture_seals = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE;

int photozoom_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int photozoom_seal_picture(int fd) { return fcntl(fd, F_ADD_SEALS, picture_seals); }

int photozoom_is_sealed_picture(int fd)
{
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & picture_seals) == picture_seals;
}

int photozoom_seal_bytes(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW); }

int photozoom_is_sealed_against_writing(int fd)
{
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & F_SEAL_WRITE) != 0;
}
