import ArgumentParser
import Foundation
import Logging
import WaylandPlatform
import WindowSystem
import X11Platform

/// `--backend`: which window system the window opens on.
enum WindowBackend: String, ExpressibleByArgument, CaseIterable {
    /// Wayland when `WAYLAND_DISPLAY` is set and its compositor answers, X11 otherwise.
    case auto
    case wayland
    case x11

    /// The window system chosen, connected where that is how it is known to answer.
    func platform(environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) throws -> any WindowPlatform {
        switch self {
        case .x11:
            return x11(environment, logger: logger)
        case .wayland:
            return try WaylandDesktop(logger: logger)
        case .auto:
            guard environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) == true else { return x11(environment, logger: logger) }
            do {
                return try WaylandDesktop(logger: logger)
            } catch {
                logger.debug("\(error); using X11")
                return x11(environment, logger: logger)
            }
        }
    }

    private func x11(_ environment: [String: String], logger: Logger) -> any WindowPlatform {
        X11Desktop(allowSharedMemory: environment["PHOTOZOOM_NO_SHM"] == nil,
                   passDescriptors: environment["PHOTOZOOM_NO_SHM_FD"] == nil,
                   allowPresent: environment["PHOTOZOOM_NO_PRESENT"] == nil,
                   logger: logger)
    }
}
