#if DEBUG
import Glibc
import Imaging

/// What a test asks a decoder process to try, to see the confinement hold: reading a file by its path,
/// making one, opening a socket, running a program. Each comes back refused (as an error) or kills the process.
enum EscapeAttempt {
    static func run(_ attempt: String) -> ImageDecodeError {
        switch attempt {
        case "open":
            let fd = open("/etc/passwd", O_RDONLY)
            if fd >= 0 { close(fd); return .unreadable("opened /etc/passwd") }
            return .unreadable("open refused: \(PhotoFile.reason(errno))")
        case "create":
            // Beneath a folder a decoder that draws SVGs may read.
            let fd = open("/usr/share/fonts/photozoom-escape", O_WRONLY | O_CREAT, 0o600)
            if fd >= 0 { close(fd); return .unreadable("created a file") }
            return .unreadable("create refused: \(PhotoFile.reason(errno))")
        case "socket":
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if fd >= 0 { close(fd); return .unreadable("made a socket") }
            return .unreadable("socket refused: \(PhotoFile.reason(errno))")
        case "exec":
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            execv("/bin/true", argv)
            return .unreadable("exec refused: \(PhotoFile.reason(errno))")
        default:
            return .unreadable("no such attempt")
        }
    }
}
#endif
