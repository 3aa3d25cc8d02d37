import Animation
import App
import Geometry
import Library
import Logging
import Outputs
import Scripting
import Transitions

/// What a run shows, how, and what it writes: built once by the command, for the window's run (`WindowRun`) or the
/// headless one (`HeadlessRun`).
public struct RunSettings {
    /// In points.
    public var size: Size
    /// Device pixels a point; nil: the desktop's in a window, 1 headless.
    public var scale: Double?
    /// `--fps`: in a window a cap (nil: the display's rate); headless, the rate of its manual clock.
    public var fps: Double?
    /// How released pulls move.
    public var motion: MotionStyle
    /// `--reduce-motion`; in a window the desktop can ask for it too.
    public var reduceMotion: Bool
    public var library: PhotoSelection
    /// Where Delete moves photos; nil: `--read-only`.
    public var trash: Trash?
    /// Whether Ctrl+R writes a photo's file (not with `--read-only`).
    public var writesPhotos: Bool
    /// The freedesktop thumbnail cache, unless `--no-thumbnail-cache`.
    public var thumbnails: ThumbnailCache?
    public var logger: Logger
    /// `--script`: played once the first screen has settled.
    public var script: ScriptTimeline?
    /// `--trace`: a line a frame.
    public var trace: TraceFile?
    /// `--screenshot`: the settled screen, written at the end.
    public var screenshot: String?
    /// `--record` and `--record-size`.
    public var record: RecordingRequest?

    public init(size: Size, scale: Double?, fps: Double?, motion: MotionStyle, reduceMotion: Bool, library: PhotoSelection,
                trash: Trash?, writesPhotos: Bool, thumbnails: ThumbnailCache?, logger: Logger, script: ScriptTimeline? = nil,
                trace: TraceFile? = nil, screenshot: String? = nil, record: RecordingRequest? = nil) {
        (self.size, self.scale, self.fps, self.motion, self.reduceMotion) = (size, scale, fps, motion, reduceMotion)
        (self.library, self.trash, self.writesPhotos, self.thumbnails, self.logger) = (library, trash, writesPhotos, thumbnails, logger)
        (self.script, self.trace, self.screenshot, self.record) = (script, trace, screenshot, record)
    }
}

/// `--record PATH` and `--record-size WxH`.
public struct RecordingRequest {
    let path: String
    let size: WindowSize?

    public init(path: String, size: WindowSize?) {
        self.path = path
        self.size = size
    }
}

/// Whether a run goes on after a turn, an event or a request.
enum Turn { case goOn, end }

/// What the app asks of a run that only the run can do (`PhotoViewerApp.Request`): quit, fill the screen, write a
/// screenshot, start or stop a recording, put a photo on the clipboard. Each runner answers them all in one switch.
protocol RunRequests: AnyObject {
    func perform(_ request: PhotoViewerApp.Request) throws -> Turn
}
