import CX11
import Foundation
import Logging
import Threads

/// What went wrong talking to the X server. Every failure of this module funnels through here.
public enum X11Error: Error, CustomStringConvertible {
    case cannotOpenDisplay(String)
    case requestFailed(String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name):
            return "cannot open the X display \(name.isEmpty ? "(DISPLAY is not set)" : "'\(name)'"); "
                + "run with --headless to render without a display"
        case .requestFailed(let what): return "X request failed: \(what)"
        }
    }
}

/// The process-wide X error handlers. Xlib takes plain C function pointers, so their state lives
/// here, in one global behind a mutex: the last protocol error, for code that must know whether
/// a request failed (after an `XSync`), the logger every protocol error is told to (at debug level,
/// with the request that caused it), and the display name for the lost-connection message.
enum X11ErrorFunnel {
    private static let state = Locked<(lastError: String?, displayName: String, logger: Logger?)>((nil, "", nil))

    static func install(displayName: String, logger: Logger) {
        state.withLock {
            $0.displayName = displayName
            $0.logger = logger
        }
        XSetErrorHandler { display, event in
            guard let display, let event else { return 0 }
            let e = event.pointee
            func text(_ fill: (UnsafeMutablePointer<CChar>, Int32) -> Void) -> String {
                var buffer = [CChar](repeating: 0, count: 256)
                buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, Int32($0.count)) }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let error = text { XGetErrorText(display, Int32(e.error_code), $0, $1) }
            // The request's name from Xlib's error database ("X_CreateWindow"), else its numbers.
            let request = text { XGetErrorDatabaseText(display, "XRequest", String(e.request_code), "", $0, $1) }
            let message = "\(error) (\(request.isEmpty ? "request \(e.request_code).\(e.minor_code)" : request), resource 0x\(String(e.resourceid, radix: 16)))"
            let logger = X11ErrorFunnel.state.withLock { s -> Logger? in
                s.lastError = message
                return s.logger
            }
            logger?.debug("X protocol error: \(message)")
            return 0
        }
        XSetIOErrorHandler { _ in
            let name = X11ErrorFunnel.state.withLock { $0.displayName }
            FileHandle.standardError.write(Data("photozoom: lost the connection to the X server \(name)\n".utf8))
            exit(1)
        }
    }

    /// Clears the record of protocol errors before a request whose failure matters.
    static func reset() { state.withLock { $0.lastError = nil } }

    /// The protocol error recorded since `reset`, if any (call after `XSync`).
    static func takeError() -> String? {
        state.withLock { s in
            defer { s.lastError = nil }
            return s.lastError
        }
    }
}
