import CSandbox
import Foundation
import Glibc

/// A decoder process shutting itself in, before it reads a byte of any file: it dies with the viewer,
/// gains no privileges, leaves no core file, holds bounded memory and processor time, reaches no file
/// (Landlock) and makes no system call outside `SyscallPolicy`'s table (seccomp).
enum Confinement {
    /// The address space a decoder may map: a 250-megapixel picture (1 GB) with room for a library's
    /// own buffers, its threads' stacks and the process's code.
    static let addressSpace = 3 << 30
    /// The processor time a decoder may ever take, s; each decode is held to far less (`DecoderRequest.cpuSeconds`).
    static let lifetimeCPUSeconds = 3600

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The steps that need files or a parent, before any library has run: die with the viewer (and
    /// leave if it is already gone), keep only the socket and the standard descriptors (on /dev/null).
    static func detach(socket: Int32, parent: pid_t) throws(Failure) {
        guard photozoom_die_with_parent() == 0 else { throw Failure(description: "PR_SET_PDEATHSIG: \(reason())") }
        guard getppid() == parent else { throw Failure(description: "the viewer is gone") }
        guard socket == 3, photozoom_close_from(4) == 0 else { throw Failure(description: "closing inherited descriptors: \(reason())") }
    }

    /// The rest, once the libraries are open: after this the process can only decode, answer, and read the files
    /// beneath `readable` (a decoder that draws SVGs: the fonts their text is drawn in). Those are reached only where
    /// the kernel has Landlock to hold the reading to them; elsewhere no file is.
    static func confine(readable: [String]) throws(Failure) {
        guard photozoom_no_new_privileges() == 0 else { throw Failure(description: "PR_SET_NO_NEW_PRIVS: \(reason())") }
        _ = photozoom_not_dumpable()
        var memory = rlimit(rlim_cur: rlim_t(addressSpace), rlim_max: rlim_t(addressSpace))
        var cpu = rlimit(rlim_cur: rlim_t(lifetimeCPUSeconds), rlim_max: rlim_t(lifetimeCPUSeconds))
        // A sanitized build (`make sanitize`) reserves terabytes of address space for its shadow memory.
        let sanitized = ProcessInfo.processInfo.environment["PHOTOZOOM_SANITIZER"] != nil
        guard sanitized || setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory) == 0,
              setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu) == 0 else { throw Failure(description: "setrlimit: \(reason())") }
        let landlock = withCStrings(readable) { photozoom_landlock_restrict($0, Int32(readable.count)) }
        guard landlock >= 0 else { throw Failure(description: "Landlock: \(reason())") }
        guard SyscallPolicy.install(opensForReading: landlock > 0 && !readable.isEmpty) else {
            throw Failure(description: "the kernel refused the seccomp filter")
        }
    }

    /// Allows `seconds` more processor time from now (SIGXCPU past it, which ends the process).
    static func allowCPU(seconds: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        var limit = rlimit(rlim_cur: rlim_t(min(used + seconds, lifetimeCPUSeconds)), rlim_max: rlim_t(lifetimeCPUSeconds))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// Where fontconfig finds its configuration, its caches and the fonts: what a decoder that draws SVGs may read.
    static func fontFolders(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let home = environment["HOME"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        func xdg(_ variable: String, _ fallback: String) -> String? {
            environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/" + fallback }
        }
        let own = [xdg("XDG_DATA_HOME", ".local/share").map { $0 + "/fonts" }, home.map { $0 + "/.fonts" },
                   xdg("XDG_CACHE_HOME", ".cache").map { $0 + "/fontconfig" }, xdg("XDG_CONFIG_HOME", ".config").map { $0 + "/fontconfig" },
                   environment["FONTCONFIG_PATH"]]
        return ["/etc/fonts", "/usr/share/fontconfig", "/usr/share/fonts", "/usr/local/share/fonts", "/var/cache/fontconfig"]
            + own.compactMap { $0 }.filter { $0.hasPrefix("/") }
    }
}

/// `strings` as C strings for the time of `body`.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress) }
}
