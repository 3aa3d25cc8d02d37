import CThreads
import Foundation

/// The project's threads, each started here: named (as `top -H`, `perf` and debuggers show it) and at its priority
/// from its first instruction. What a thread shares with the others is a `Locked` value; one that takes jobs in
/// order is a `Mailbox`.
public enum Worker {
    /// Runs `body` on a new thread named `name`, at `priority` (nil: the starting thread's).
    public static func start(named name: String, priority: ThreadPriority? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            // The kernel's name, which Foundation leaves as the starting thread's.
            _ = photozoom_name_this_thread(name)
            priority?.applyToCurrentThread()
            body()
        }
        thread.name = name
        thread.start()
    }
}

/// Jobs handled in the order they were sent, on a worker of their own, until the mailbox is closed (the jobs
/// still in it are dropped). The worker holds the mailbox's queue, not the mailbox: it ends once the mailbox is
/// closed or let go.
public final class Mailbox<Job: Sendable>: Sendable {
    private struct Queue: Sendable {
        var jobs: [Job] = []
        var busy = false
        var closed = false
    }
    private let queue = Locked(Queue())

    /// Starts the worker `name`, at `priority`, that hands each job to `handle`.
    public init(named name: String, priority: ThreadPriority? = nil, handle: @escaping @Sendable (Job) -> Void) {
        Worker.start(named: name, priority: priority) { [queue] in
            while let job = queue.wait(until: { $0.closed || !$0.jobs.isEmpty }, then: { q -> Job? in
                guard !q.closed else { return nil }
                q.busy = true
                return q.jobs.removeFirst()
            }) {
                handle(job)
                queue.withLockWakingWaiters { $0.busy = false }
            }
        }
    }

    deinit { close() }

    public func send(_ job: Job) { queue.withLockWakingWaiters { $0.jobs.append(job) } }

    /// Drops the jobs not started, and ends the worker after the one under way.
    public func close() { queue.withLockWakingWaiters { $0.closed = true; $0.jobs.removeAll() } }

    /// Whether no job waits and none is under way.
    public var isIdle: Bool { queue.withLock { $0.jobs.isEmpty && !$0.busy } }
}
