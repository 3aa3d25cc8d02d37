#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <linux/landlock.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int photozoom_no_new_privileges(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }
int photozoom_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }
int photozoom_not_dumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int photozoom_close_from(unsigned int first) { return (int)syscall(SYS_close_range, first, ~0U, 0); }

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

int photozoom_landlock_restrict(const char *const *readable, int count)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) return (errno == ENOSYS || errno == EOPNOTSUPP) ? 0 : -1;
    /* Every right ABI 1 knows (reading, writing, listing, making and removing any kind of file)… */
    struct landlock_ruleset_attr attr = { .handled_access_fs =
        LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
        LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
        LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
        LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
        LANDLOCK_ACCESS_FS_MAKE_SYM };
    /* …and those later ABIs add (linking across folders, truncating). */
    if (abi >= 2) attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return -1;
    /* Reading, and nothing else, beneath each folder that exists. */
    for (int i = 0; i < count; i++) {
        int folder = open(readable[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (folder < 0) continue;
        struct landlock_path_beneath_attr beneath = {
            .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, .parent_fd = folder };
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        close(folder);
        if (added < 0) {
            close(ruleset);
            return -1;
        }
    }
    int status = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    errno = saved;
    return status < 0 ? -1 : (int)abi;
}

uint32_t photozoom_seccomp_errno(uint16_t code) { return SCMP_ACT_ERRNO(code); }
uint32_t photozoom_seccomp_kill(void) { return SCMP_ACT_KILL_PROCESS; }
uint32_t photozoom_seccomp_allow(void) { return SCMP_ACT_ALLOW; }
uint32_t photozoom_seccomp_trap(void) { return SCMP_ACT_TRAP; }

int photozoom_seccomp_allow_masked(scmp_filter_ctx ctx, int syscall, unsigned int arg, uint64_t mask, uint64_t value)
{
    return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, syscall, 1, SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, mask, value));
}

int photozoom_seccomp_allow_equal(scmp_filter_ctx ctx, int syscall, unsigned int arg, uint64_t value)
{
    return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, syscall, 1, SCMP_CMP(arg, SCMP_CMP_EQ, value));
}

int photozoom_seccomp_stat_on_descriptor_only(scmp_filter_ctx ctx, int syscall, unsigned int flags_arg)
{
    int allowed = photozoom_seccomp_allow_masked(ctx, syscall, flags_arg, AT_EMPTY_PATH, AT_EMPTY_PATH);
    if (allowed != 0) return allowed;
    return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), syscall, 1,
                            SCMP_CMP(flags_arg, SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0));
}

int photozoom_seccomp_open_for_reading_only(scmp_filter_ctx ctx, int syscall, unsigned int flags_arg)
{
    const uint64_t writes[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, __O_TMPFILE };
    uint64_t any = 0;
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        any |= writes[i];
        int refused = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), syscall, 1,
                                       SCMP_CMP(flags_arg, SCMP_CMP_MASKED_EQ, writes[i], writes[i]));
        if (refused != 0) return refused;
    }
    return photozoom_seccomp_allow_masked(ctx, syscall, flags_arg, any, 0);
}

int photozoom_spawn_close_from(posix_spawn_file_actions_t *actions, int first)
{
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

int photozoom_rename_no_replace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    /* A file system that can't promise it (some network ones): a link fails on an existing name too. */
    if (link(from, to) != 0) return -1;
    return unlink(from);
}
