import Foundation
import Threads

/// A thread of its own that frees the memory of large images (`PixelImage`), started by the window
/// loop: giving back tens of MB to the system (unmapping their pages) takes milliseconds the frames
/// cannot spare. Started once, it stays for the process's life, so the window's threads stay as many.
/// Elsewhere (headless, tests) nothing is started and images free their memory where they go.
public enum LargeImageRelease {
    /// Images of this many bytes or more go to the thread.
    static let threshold = 1 << 20

    /// The memory of an image gone, on its way to being freed: no one else holds it (so it is sent across threads).
    /// `mappedBytes` is the length of a mapping to unmap; 0 for the heap.
    private struct Memory: @unchecked Sendable { let bytes: UnsafeMutableRawPointer; let mappedBytes: Int }
    /// The thread's mailbox, once started.
    private static let mailbox = Locked<Mailbox<Memory>?>(nil)

    /// Starts the thread (once).
    public static func start() {
        mailbox.withLock { mailbox in
            guard mailbox == nil else { return }
            mailbox = Mailbox(named: "photozoom-release") { memory in
                if memory.mappedBytes > 0 { munmap(memory.bytes, memory.mappedBytes) } else { memory.bytes.deallocate() }
            }
        }
    }

    /// Hands `bytes` to the thread; false when it was not started (the caller frees them).
    static func take(_ bytes: UnsafeMutableRawPointer, mappedBytes: Int = 0) -> Bool {
        guard let mailbox = mailbox.withLock({ $0 }) else { return false }
        mailbox.send(Memory(bytes: bytes, mappedBytes: mappedBytes))
        return true
    }
}
