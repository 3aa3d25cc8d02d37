import Foundation
import Locks

/// A thread of its own that frees the memory of large images (`PixelImage`), started by the window
/// loop: giving back tens of MB to the system (unmapping their pages) takes milliseconds the frames
/// cannot spare. Started once, it stays for the process's life, so the window's threads stay as many.
/// Elsewhere (headless, tests) nothing is started and images free their memory where they go.
public enum LargeImageRelease {
    /// Images of this many bytes or more go to the thread.
    static let threshold = 1 << 20

    /// The memory of an image gone, on its way to being freed: no one else holds it.
    /// `mappedBytes` is the length of a mapping to unmap; 0 for the heap.
    private struct Memory: @unchecked Sendable { let bytes: UnsafeMutableRawPointer; let mappedBytes: Int }
    private static let state = Locked<(running: Bool, pending: [Memory])>((false, []))

    /// Starts the thread (once).
    public static func start() {
        let started = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        guard started else { return }
        let thread = Thread {
            while true {
                let batch = state.wait(until: { !$0.pending.isEmpty }) { state in
                    defer { state.pending = [] }
                    return state.pending
                }
                for memory in batch {
                    if memory.mappedBytes > 0 { munmap(memory.bytes, memory.mappedBytes) } else { memory.bytes.deallocate() }
                }
            }
        }
        thread.name = "photozoom-release"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Hands `bytes` to the thread; false when it was not started (the caller frees them).
    static func take(_ bytes: UnsafeMutableRawPointer, mappedBytes: Int = 0) -> Bool {
        state.withLockWakingWaiters { state in
            guard state.running else { return false }
            state.pending.append(Memory(bytes: bytes, mappedBytes: mappedBytes))
            return true
        }
    }
}
