import Glibc

/// CPU priority of the calling thread. On Linux each thread has its own nice value, so a worker can
/// step back for the frame loop on a machine with few cores while the rest of the process does not.
public enum ThreadPriority {
    /// Raises the calling thread's nice value by `steps` (lower priority; 19 at most).
    public static func lowerCurrentThread(by steps: Int32) {
        // `who` 0 names the calling thread on Linux (the kernel's `current`), not the whole process.
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + steps))
    }
}
