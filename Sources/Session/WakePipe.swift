import Glibc

/// A self-pipe that lets the decoding threads wake the `poll` of the main loop.
final class WakePipe: Sendable {
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe failed")
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    var signal: @Sendable () -> Void {
        { [writeDescriptor] in
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)   // a full pipe already means "wake up"
        }
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}
