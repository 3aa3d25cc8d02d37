import Foundation
import Glibc
import Testing
@testable import Threads

/// A worker's priority is its own thread's: the thread that started it (the frame loop's) keeps its own.
@Suite struct ThreadPriorityTests {
    @Test func aLoweredWorkerRunsAtItsNiceValue() {
        let before = Self.scheduling()
        let worker = Self.scheduling(onANewThreadAfter: .lowered(by: 10))
        #expect(worker.policy == SCHED_OTHER)
        #expect(worker.nice == min(19, before.nice + 10))
        #expect(Self.scheduling() == before, "the calling thread's own priority changed")
    }

    /// `SCHED_IDLE`, which any process may take (nice 19 is only for a sandbox that refuses it).
    @Test func anIdleWorkerRunsWhenNothingElseWantsTheCPU() {
        let before = Self.scheduling()
        let worker = Self.scheduling(onANewThreadAfter: .idle)
        #expect(worker.policy == ThreadPriority.idlePolicy, "SCHED_IDLE refused: policy \(worker.policy), nice \(worker.nice)")
        #expect(Self.scheduling() == before, "the calling thread's own priority changed")
    }

    private struct Scheduling: Equatable, Sendable {
        let policy: Int32
        let nice: Int32
    }

    private static func scheduling() -> Scheduling {
        Scheduling(policy: sched_getscheduler(0), nice: getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    }

    private static func scheduling(onANewThreadAfter priority: ThreadPriority) -> Scheduling {
        final class Seen: @unchecked Sendable {
            var scheduling: Scheduling?   // written before `done` is signalled, read after it is waited for
            let done = DispatchSemaphore(value: 0)
        }
        let seen = Seen()
        Thread {
            priority.applyToCurrentThread()
            seen.scheduling = scheduling()
            seen.done.signal()
        }.start()
        seen.done.wait()
        return seen.scheduling!
    }
}
