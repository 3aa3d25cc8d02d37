import Foundation

/// A value only reached under its lock, as swift-nio's `NIOLockedValueBox`: the project's one lock type. A thread
/// that needs the value to change waits on it (`wait(until:then:)`), and the thread that changes it wakes the waiters
/// (`withLockWakingWaiters`). ThreadSanitizer sees through it: it is a pthread mutex and condition (NSCondition).
public final class Locked<Value> {
    private let condition = NSCondition()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// `withLock`, then wakes every thread waiting for the value to change.
    public func withLockWakingWaiters<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits, the lock let go meanwhile, until `ready` holds for the value, then runs `body` with it under the lock.
    public func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) { condition.wait() }
        return try body(&value)
    }

    /// `wait(until:then:)` for at most until `deadline`; nil when it passed and `ready` still did not hold.
    public func wait<Result>(until ready: (Value) -> Bool, before deadline: Date,
                             then body: (inout Value) throws -> Result) rethrows -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) {
            guard condition.wait(until: deadline) else { return ready(value) ? try body(&value) : nil }
        }
        return try body(&value)
    }
}

// Every access to the value is under the lock.
extension Locked: @unchecked Sendable where Value: Sendable {}
