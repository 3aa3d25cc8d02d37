import Foundation
import Testing
@testable import Threads

/// The one lock type and the one worker type, as their users lean on them.
@Suite struct WorkerTests {
    /// Many threads adding under the lock lose nothing; a waiter wakes once the value is what it waits for.
    @Test func aLockedValueLosesNoChangeAndWakesItsWaiter() {
        let count = Locked(0)
        let done = Locked(0)
        for t in 0..<8 {
            Worker.start(named: "photozoom-test-\(t)") {
                for _ in 0..<1000 { count.withLock { $0 += 1 } }
                done.withLockWakingWaiters { $0 += 1 }
            }
        }
        done.wait(until: { $0 == 8 }) { _ in }
        #expect(count.withLock { $0 } == 8000)
    }

    @Test func aWaitWithADeadlineGivesUpWhenNothingChanges() {
        let never = Locked(false)
        let start = Date()
        let result = never.wait(until: { $0 }, before: Date().addingTimeInterval(0.05)) { _ in "woke" }
        #expect(result == nil)
        #expect(Date().timeIntervalSince(start) >= 0.04)
    }

    /// A worker runs under its name, at its priority, while the thread that started it keeps its own.
    @Test func aWorkerHasItsNameAndPriority() {
        let seen = Locked<(name: String?, nice: Int32?)>((nil, nil))
        errno = 0
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        Worker.start(named: "photozoom-named", priority: .lowered(by: 5)) {
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            // The kernel's name of the thread, as `top -H` shows it.
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
            seen.withLockWakingWaiters { $0 = (name ?? "", nice) }
        }
        let (name, nice) = seen.wait(until: { $0.name != nil }) { $0 }
        #expect(name == "photozoom-named")
        #expect(nice == min(19, before + 5))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }

    /// Jobs are handled one at a time in the order sent; the mailbox is idle once the last is done, and a closed
    /// one drops what it still held.
    @Test func aMailboxHandlesJobsInOrderAndIsIdleAfterTheLast() {
        let handled = Locked<[Int]>([])
        let started = Locked(0)
        let gate = Locked(false)
        let mailbox = Mailbox<Int>(named: "photozoom-mailbox") { job in
            started.withLockWakingWaiters { $0 += 1 }
            gate.wait(until: { $0 }) { _ in }
            handled.withLockWakingWaiters { $0.append(job) }
        }
        for job in 0..<5 { mailbox.send(job) }
        #expect(!mailbox.isIdle, "jobs wait")
        gate.withLockWakingWaiters { $0 = true }
        handled.wait(until: { $0.count == 5 }) { _ in }
        #expect(handled.withLock { $0 } == [0, 1, 2, 3, 4])
        let deadline = Date().addingTimeInterval(2)
        while !mailbox.isIdle && Date() < deadline { usleep(1000) }
        #expect(mailbox.isIdle)

        gate.withLock { $0 = false }
        mailbox.send(5)
        started.wait(until: { $0 == 6 }) { _ in }   // under way, held at the gate
        mailbox.send(6)
        mailbox.close()
        gate.withLockWakingWaiters { $0 = true }
        usleep(50_000)
        #expect(handled.withLock { $0 } == [0, 1, 2, 3, 4, 5], "the job under way is done, the one waiting dropped")
    }
}
