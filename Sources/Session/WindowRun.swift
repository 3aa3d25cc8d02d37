import Animation
import App
import Cairo
import CCairo
import Foundation
import Geometry
import Glibc
import Imaging
import Library
import Logging
import Outputs
import Pixels
import Rendering
import Scripting
import SystemPackage
import Transitions
import WindowSystem

/// The interactive loop: tick and draw while something moves, each frame at a refresh of the display
/// when it paces them (X Present), else on a timer (`FramePacer`); otherwise sleep in `poll` until the
/// window system, a finished thumbnail or the next script step wakes it, so idle costs no CPU. A script
/// starts once the first screen has settled and plays in real time, its input sent through the window
/// system (`PlatformWindow.inject`). Nothing here knows which window system it is.
public struct WindowRun {
    /// X11 or Wayland.
    let platform: any WindowPlatform
    let settings: RunSettings

    public init(platform: any WindowPlatform, settings: RunSettings) {
        self.platform = platform
        self.settings = settings
    }

    public func run() throws {
        // Photos let go (a viewer closed) free their memory off the frame's thread.
        LargeImageRelease.start()
        FontWarmUp.start()
        let session = try WindowSession(platform: platform, settings: settings)
        defer {
            session.close()
            settings.library.thumbnailColours?.flush()
        }
        while try session.step() == .goOn {}
    }
}
