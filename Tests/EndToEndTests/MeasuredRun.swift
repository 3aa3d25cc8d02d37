import Foundation
import Glibc
import TestSupport

/// The viewer run to its end as `ViewerProcess.run` runs it, and its own peak memory as the kernel
/// counted it. GNU time forks the viewer and reads its resource usage: a child the test runner spawned
/// itself (posix_spawn shares the runner's memory until it execs) would be charged the runner's peak.
struct MeasuredRun {
    let status: Int32
    let standardError: String
    /// Peak resident memory, KiB.
    let peakKiB: Int

    init(_ arguments: [String]) throws {
        let folder = try TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["ASAN_OPTIONS"] = nil
        environment["XDG_CACHE_HOME"] = folder.path + "/cache"
        let errors = folder.path + "/stderr.txt", peak = folder.path + "/peak.txt"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = (["/usr/bin/time", "-f", "%M", "-o", peak, ViewerProcess.executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        self.status = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        standardError = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let measured = (try? String(contentsOfFile: peak, encoding: .utf8)) ?? ""
        guard let kib = measured.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw MeasureFailed(reason: "GNU time (the Debian package `time`) gave no figure: \(measured)")
        }
        peakKiB = kib
    }
}

struct MeasureFailed: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
