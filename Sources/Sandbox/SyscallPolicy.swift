import CSandbox
import Glibc

/// What a decoder process may ask of the kernel once confined: one table. Every system call not named
/// here kills the process (opening a socket, running a program, tracing another, forking), so that a
/// library taken over by a hostile file can do no more than fail its one picture.
enum SyscallPolicy {
    /// What decoding needs: memory, threads (libheif's and libjxl's), time, reading the descriptors it is
    /// given, and answering on its socket.
    static let allowed: [String] = [
        // Reading the file it was given, writing its answer.
        "read", "pread64", "readv", "write", "writev", "lseek", "close", "dup", "fstat", "fcntl", "recvmsg", "sendmsg", "poll", "ppoll",
        // Listing a folder it holds open (fontconfig's fonts, where it may read them).
        "getdents64",
        // Memory: the heap, mappings, and the memory files pictures are handed over in.
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "memfd_create", "ftruncate", "membarrier",
        // Threads and their waits.
        "clone", "clone3", "futex", "set_robust_list", "rseq", "sched_yield", "sched_getaffinity", "set_tid_address",
        "exit", "exit_group", "gettid", "getpid", "getppid",
        // Signals a library sets for itself (and abort's raise to its own thread).
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
        // Time and randomness.
        "clock_gettime", "clock_getres", "gettimeofday", "nanosleep", "clock_nanosleep", "getrandom",
        // Facts about itself: its limits (to set the next decode's CPU time), its use of time, the machine.
        "getrusage", "sysinfo", "uname", "getuid", "geteuid", "getgid", "getegid",
    ]

    /// Calls that fail with an error rather than kill: libraries try them in passing (a config file, a
    /// terminal check) and go on without. Landlock refuses the files anyway.
    static let refused: [(name: String, errno: Int32)] = [
        ("open", EACCES), ("openat", EACCES), ("openat2", EACCES), ("access", EACCES), ("faccessat", EACCES),
        ("faccessat2", EACCES), ("readlink", EACCES), ("readlinkat", EACCES), ("stat", EACCES), ("lstat", EACCES),
        ("ioctl", ENOTTY), ("prctl", EPERM), ("sched_setaffinity", EPERM), ("setpriority", EPERM),
        ("mkdir", EACCES), ("mkdirat", EACCES),
        // GLib asks whether its log's descriptor is the journal's socket before it writes a warning.
        ("getpeername", ENOTSOCK),
    ]

    /// Calls allowed only in a harmless form: `newfstatat` and `statx` on a descriptor (`AT_EMPTY_PATH`,
    /// glibc's fstat), refused on a path (ICU looks for its data files so); `prlimit64` on itself.
    static func addNarrowRules(_ filter: scmp_filter_ctx) -> Bool {
        photozoom_seccomp_stat_on_descriptor_only(filter, number("newfstatat"), 3) == 0
            && photozoom_seccomp_stat_on_descriptor_only(filter, number("statx"), 2) == 0
            && photozoom_seccomp_allow_equal(filter, number("prlimit64"), 0, 0) == 0
            // tgkill and tkill to its own process only (abort's raise).
            && photozoom_seccomp_allow_equal(filter, number("tgkill"), 0, UInt64(getpid())) == 0
    }

    static func number(_ name: String) -> Int32 { seccomp_syscall_resolve_name(name) }

    /// Opening a path, allowed for reading only (where Landlock holds it to the folders a decoder may read).
    static let opens: [(name: String, flagsArgument: UInt32)] = [("open", 1), ("openat", 2)]
    /// Asking whether a path may be read, allowed with `opens` (Pango asks before it opens a font; Landlock does not
    /// hold it, so it tells whether any path exists, and nothing of what it holds).
    static let accessChecks = ["access", "faccessat", "faccessat2"]

    /// Loads the filter on every thread of the process; false when the kernel refuses it. With `opensForReading`,
    /// `opens` may open a file to read it (and are refused one to write); without, they are refused.
    static func install(opensForReading: Bool, unlistedAction: UInt32 = photozoom_seccomp_kill()) -> Bool {
        guard let filter = seccomp_init(unlistedAction) else { return false }
        defer { seccomp_release(filter) }
        guard seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) == 0 else { return false }
        for name in allowed where seccomp_rule_add_array(filter, photozoom_seccomp_allow(), number(name), 0, nil) != 0 {
            return false
        }
        let reading = opensForReading ? Set(opens.map(\.name) + accessChecks) : []
        for (name, code) in refused where !reading.contains(name)
        && number(name) != __NR_SCMP_ERROR && seccomp_rule_add_array(filter, photozoom_seccomp_errno(UInt16(code)), number(name), 0, nil) != 0 {
            return false
        }
        for (name, flags) in opens where reading.contains(name) && photozoom_seccomp_open_for_reading_only(filter, number(name), flags) != 0 {
            return false
        }
        for name in accessChecks where reading.contains(name)
        && number(name) != __NR_SCMP_ERROR && seccomp_rule_add_array(filter, photozoom_seccomp_allow(), number(name), 0, nil) != 0 {
            return false
        }
        return addNarrowRules(filter) && seccomp_load(filter) == 0
    }
}
