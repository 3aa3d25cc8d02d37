import CX11
import Foundation
import Synchronization

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
/// a request failed (after an `XSync`), and the display name for the lost-connection message.
enum X11ErrorFunnel {
    private static let state = Mutex<(lastError: String?, displayName: String)>((nil, ""))

    static func install(displayName: String) {
        state.withLock { $0.displayName = displayName }
        XSetErrorHandler { display, event in
            guard let display, let event else { return 0 }
            var text = [CChar](repeating: 0, count: 256)
            XGetErrorText(display, Int32(event.pointee.error_code), &text, Int32(text.count))
            let message = "\(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) (request \(event.pointee.request_code).\(event.pointee.minor_code))"
            X11ErrorFunnel.state.withLock { $0.lastError = message }
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
