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
    /// In points.
    let size: Size
    /// Device pixels a point; nil: the desktop's (`WindowPlatform.desktopScale`).
    let scale: Double?
    /// `--fps`, a cap; nil: the display's rate.
    let fps: Double?
    /// How released pulls move.
    let motion: MotionStyle
    /// `--reduce-motion`; the desktop can ask for it too.
    let reduceMotion: Bool
    let trace: TraceFile?
    let library: PhotoSelection
    /// Where Delete moves photos; nil: `--read-only`.
    let trash: Trash?
    /// Whether Ctrl+R writes a photo's file (not with `--read-only`).
    let writesPhotos: Bool
    /// The freedesktop thumbnail cache, unless `--no-thumbnail-cache`.
    let thumbnails: ThumbnailCache?
    let logger: Logger

    public init(platform: any WindowPlatform, size: Size, scale: Double?, fps: Double?, motion: MotionStyle, reduceMotion: Bool,
                trace: TraceFile?, library: PhotoSelection, trash: Trash?, writesPhotos: Bool, thumbnails: ThumbnailCache?, logger: Logger) {
        self.platform = platform
        self.size = size
        self.scale = scale
        self.fps = fps
        self.motion = motion
        self.reduceMotion = reduceMotion
        self.trace = trace
        self.library = library
        self.trash = trash
        self.writesPhotos = writesPhotos
        self.thumbnails = thumbnails
        self.logger = logger
    }

    public func run(script: ScriptTimeline?, screenshot: String?, record: RecordingRequest?) throws {
        // Photos let go (a viewer closed) free their memory off the frame's thread.
        LargeImageRelease.start()
        FontWarmUp.start()
        let session = try WindowSession(self, script: script, screenshot: screenshot, record: record)
        defer { session.close() }
        while try session.step() == .goOn {}
    }
}
