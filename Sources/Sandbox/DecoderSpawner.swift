import CSandbox
import Foundation
import Glibc
import Threads

/// Starts decoder processes, always from one thread of its own that lives as long as the viewer: a
/// decoder asks the kernel to kill it when the thread that started it ends (PR_SET_PDEATHSIG is a
/// thread's, not a process's), so a decoder started from a passing thread would die with it.
final class DecoderSpawner: Sendable {
    private let executable: String
    /// The starts asked for, and the decoders started and not handed out yet.
    private let queue = Locked<(asked: [(niceness: Int32, libraries: Set<String>)], started: [DecoderWorker?])>(([], []))

    init(executable: String) {
        self.executable = executable
        Worker.start(named: "photozoom-decoder-spawner") { [self] in serve() }
    }

    /// A new decoder process (not yet known to be ready), `niceness` steps below the viewer, that opens `libraries`
    /// of those opened on demand; nil when it could not be started.
    func spawn(niceness: Int32, libraries: Set<String>) -> DecoderWorker? {
        queue.withLockWakingWaiters { $0.asked.append((niceness, libraries)) }
        return queue.wait(until: { !$0.started.isEmpty }) { $0.started.removeFirst() }
    }

    private func serve() {
        while true {
            let (niceness, libraries) = queue.wait(until: { !$0.asked.isEmpty }) { $0.asked.removeFirst() }
            let worker = DecoderWorker.start(executable: executable, niceness: niceness, libraries: libraries)
            queue.withLockWakingWaiters { $0.started.append(worker) }
        }
    }
}

/// One decoder process as the viewer holds it: its pid, and its end of their socket.
struct DecoderWorker: Sendable {
    let pid: pid_t
    let socket: Int32
    /// The libraries opened on demand (libheif, libjxl, librsvg) it opened before confining itself.
    let libraries: Set<String>
    /// Whether its first message (ready, or why it could not confine itself) was read.
    var isReady = false

    /// Starts `executable` in its decoder mode, `niceness` steps below the viewer, with the socket as its
    /// descriptor 3, the standard ones on /dev/null, and nothing else of the viewer's.
    static func start(executable: String, niceness: Int32, libraries: Set<String>) -> DecoderWorker? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return nil }
        defer { close(ends[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], DecoderProcess.socket)
        photozoom_spawn_close_from(&actions, DecoderProcess.socket + 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: Ctrl+C in the viewer's terminal is the viewer's to take.
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        let arguments = [executable, DecoderProcess.argument, String(getpid()), String(niceness),
                         DecoderProcess.argument(opening: libraries)]
        let environment = ProcessInfo.processInfo.environment.merging(Self.environment) { $1 }.map { "\($0)=\($1)" }
        var pid: pid_t = 0
        let status = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        }
        guard status == 0 else {
            close(ends[0])
            return nil
        }
        return DecoderWorker(pid: pid, socket: ends[0], libraries: libraries)
    }

    /// A decoder's own settings: two malloc arenas (its address space is bounded, and each arena reserves
    /// 64 MiB of it), and no crash report (the Swift runtime's would start a program, which it may not).
    static let environment = ["MALLOC_ARENA_MAX": "2", "SWIFT_BACKTRACE": "enable=no"]

    /// Whether the process's end of the socket is closed (it died while idle), seen without waiting.
    var hasHungUp: Bool {
        var end = pollfd(fd: socket, events: 0, revents: 0)
        return poll(&end, 1, 0) == 1 && end.revents & Int16(POLLHUP | POLLERR) != 0
    }

    /// Kills it and waits for it; the signal that ended it (0 when it exited).
    func stop() -> Int32 {
        kill(pid, SIGKILL)
        return reap()
    }

    /// Waits for its end; the signal that ended it, 0 when it exited by itself.
    func reap() -> Int32 {
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED and WTERMSIG are macros: the low seven bits are the signal, 0 an exit.
        return status & 0x7F
    }
}

/// `strings` as a NULL-ended C array for the time of `body`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let copies = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return body(copies)
}
