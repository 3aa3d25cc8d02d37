#ifndef PHOTOZOOM_CSANDBOX_H
#define PHOTOZOOM_CSANDBOX_H

/* What a decoder process needs of the kernel to confine itself, for Swift: prctl and syscall are variadic
 * and Landlock has no glibc wrapper, so each use is a plain function here. libseccomp's own API is
 * imported as it is (its variadic rule call has an array form). */
#include <seccomp.h>
#include <stdint.h>
#include <sys/types.h>
/* Extended attributes (kept when a photo is rewritten), which Swift's Glibc module leaves out. */
#include <sys/xattr.h>

/* PR_SET_NO_NEW_PRIVS; 0 or -1 with errno. */
int photozoom_no_new_privileges(void);
/* PR_SET_PDEATHSIG with SIGKILL: the process dies with the thread that started it. */
int photozoom_die_with_parent(void);
/* PR_SET_DUMPABLE 0: no core file of a decoder's memory (the photos it read). */
int photozoom_not_dumpable(void);
/* A Landlock domain that handles every file-system access right of the running ABI and allows none but
 * reading files and listing folders beneath the `count` folders `readable` (those that exist).
 * Returns the ABI version applied (>= 1), 0 where the kernel has no Landlock, -1 with errno on failure. */
int photozoom_landlock_restrict(const char *const *readable, int count);
/* close_range(first, ~0U, 0). */
int photozoom_close_from(unsigned int first);
/* SCMP_ACT_ERRNO(code) and SCMP_ACT_KILL_PROCESS, which are macros. */
uint32_t photozoom_seccomp_errno(uint16_t code);
uint32_t photozoom_seccomp_kill(void);
uint32_t photozoom_seccomp_allow(void);
uint32_t photozoom_seccomp_trap(void);
/* A rule on one argument: the syscall allowed only when (arg & mask) == value. */
int photozoom_seccomp_allow_masked(scmp_filter_ctx ctx, int syscall, unsigned int arg, uint64_t mask, uint64_t value);
/* A rule on one argument: the syscall allowed only when arg == value. */
int photozoom_seccomp_allow_equal(scmp_filter_ctx ctx, int syscall, unsigned int arg, uint64_t value);

/* Rules for a *stat call with a flags argument (`flags_arg`): allowed on a descriptor (AT_EMPTY_PATH, glibc's
 * fstat), refused with EACCES on a path. */
int photozoom_seccomp_stat_on_descriptor_only(scmp_filter_ctx ctx, int syscall, unsigned int flags_arg);
/* `open`/`openat` allowed when its flags ask for reading only; refused (EACCES) when they ask to write,
   create, truncate or append. */
int photozoom_seccomp_open_for_reading_only(scmp_filter_ctx ctx, int syscall, unsigned int flags_arg);
/* posix_spawn_file_actions_addclosefrom_np, which glibc declares only under _GNU_SOURCE. */
#include <spawn.h>
int photozoom_spawn_close_from(posix_spawn_file_actions_t *actions, int first);

/* Renames `from` to `to` only where nothing is at `to` (renameat2 RENAME_NOREPLACE; on a file system without
 * it, a hard link then an unlink, which refuses an existing name as well). 0, or -1 with errno (EEXIST: a
 * file is there). */
int photozoom_rename_no_replace(const char *from, const char *to);

/* One message on a SOCK_SEQPACKET socket, with at most one descriptor beside it (SCM_RIGHTS; -1: none).
 * Returns the bytes sent, or -1 with errno. */
ssize_t photozoom_send_message(int socket, const void *bytes, size_t count, int descriptor);
/* One message of at most `capacity` bytes, and the descriptor sent with it in *descriptor (close-on-exec;
 * -1: none; a second one, or a truncated message, is closed and refused with EPROTO). Returns the bytes
 * received, 0 when the other end has gone, or -1 with errno. */
ssize_t photozoom_receive_message(int socket, void *bytes, size_t capacity, int *descriptor);

#endif
