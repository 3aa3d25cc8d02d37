import CSandbox
import Foundation
import Glibc
import SystemPackage
import Threads

/// Starts another program the way a desktop does: in a session of its own (the viewer quitting or its
/// terminal closing does not end it), its input from /dev/null, and not waited for; a thread reaps it
/// when it ends, so that no zombie is left. It gets none of the viewer's descriptors but the standard
/// ones, and not the startup token the viewer was started with (`DESKTOP_STARTUP_ID`,
/// `XDG_ACTIVATION_TOKEN`: the viewer's own, used up by its window).
public enum DetachedLaunch {
    /// glibc's `POSIX_SPAWN_SETSID` (`<spawn.h>` under `_GNU_SOURCE`, which Swift's Glibc module does not see).
    private static let setsid: Int32 = 0x80

    /// What a started program does not inherit: the viewer's own startup tokens.
    static let inheritedNot: Set<String> = ["DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN"]

    /// Starts `arguments` (each an argument's bytes; the first the program, found on `$PATH`); its pid.
    public static func start(_ arguments: [[UInt8]]) throws(Errno) -> pid_t {
        guard !arguments.isEmpty else { throw Errno.invalidArgument }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(setsid))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        photozoom_spawn_close_from(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return p
        } + [nil]
        defer { for p in argv { p?.deallocate() } }
        var environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment
            .filter { !inheritedNot.contains($0.key) }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in environment { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, &environment)
        guard status == 0 else { throw Errno(rawValue: status) }
        let child = pid
        Worker.start(named: "photozoom reaper") { var ignored: Int32 = 0; _ = waitpid(child, &ignored, 0) }
        return pid
    }
}
