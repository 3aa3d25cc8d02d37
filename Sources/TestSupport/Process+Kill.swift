import Foundation
import Glibc

extension Process {
    /// Ends a server the test started, at once, and reaps it. SIGKILL: Foundation's Process starts its
    /// children with SIGTERM blocked, and a test wants it gone, as a crash would.
    public func killNow() {
        guard isRunning else { return }
        Glibc.kill(processIdentifier, SIGKILL)
        waitUntilExit()
    }
}
