import Glibc

/// Sleeping in `poll` until a window system's connection (or the loop's wake-up pipe) has something.
public enum ReadableWait {
    /// Waits up to `timeout` seconds (nil: as long as it takes) for one of `descriptors` to be readable
    /// (or hung up); returns which are.
    public static func wait(for descriptors: [Int32], upTo timeout: Double?) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Whole milliseconds, rounded down, and under one the rest slept: a frame started a millisecond
        // late can miss its refresh.
        var ms = timeout.map { Int32(min(max(0, $0), 86_400) * 1000) } ?? -1
        if ms == 0, let timeout, timeout > 0 {
            var rest = timespec(tv_sec: 0, tv_nsec: Int(min(timeout, 0.001) * 1e9))
            nanosleep(&rest, nil)
            ms = 0
        }
        guard poll(&fds, nfds_t(fds.count), ms) > 0 else { return fds.map { _ in false } }
        return fds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }
}
