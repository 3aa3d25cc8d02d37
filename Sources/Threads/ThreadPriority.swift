import Glibc

/// How far a worker thread steps back from the frame loop. On Linux each thread has its own nice value and
/// scheduling policy, so a worker can give way to the frame loop, and to the X server and compositor that put
/// its frames up, while the rest of the process does not. Neither can be undone by an unprivileged process.
public enum ThreadPriority: Sendable {
    /// Nice `steps` above the process's (19 at most): a share of the CPU when others want it.
    case lowered(by: Int32)
    /// Runs only when no other thread on the machine wants a CPU (`SCHED_IDLE`: any other thread waking takes
    /// the CPU at once); nice 19 where the kernel refuses it.
    case idle

    /// Applies to the calling thread (`who`/`pid` 0 names the calling thread on Linux, not the whole process).
    public func applyToCurrentThread() {
        switch self {
        case .lowered(let steps):
            Self.lowerCurrentThread(by: steps)
        case .idle:
            var parameters = sched_param(sched_priority: 0)
            if sched_setscheduler(0, Self.idlePolicy, &parameters) != 0 {
                Self.lowerCurrentThread(by: 19)
            }
        }
    }

    /// `SCHED_IDLE` from `<bits/sched.h>`, which Swift's Glibc module leaves out.
    static let idlePolicy: Int32 = 5

    private static func lowerCurrentThread(by steps: Int32) {
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + steps))
    }
}
