import App
import ArgumentParser
import Foundation
import Geometry
import Imaging
import Library
import Logging
import Outputs
import Sandbox
import Scripting
import Session
import SystemPackage
import Transitions

@main
struct PhotoZoomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photozoom",
        abstract: "A photo viewer with the iOS Photos zoom transition, for Wayland and X11.",
        discussion: """
            Keys in the window: ? shows them all; q quits, s saves a screenshot \
            (photozoom-<date>-<time>.png in the current folder), r records the window \
            (photozoom-<date>-<time>.webp), Ctrl+C copies the open photo, space pauses an animation. Files dropped \
            on the window open as they would from the command line.

            Formats, told by their content: \(ImageFormat.summary).
            """,
        version: Version.string)

    /// How often a scripted move in the window reports the pointer, Hz.
    static let mouseReportRate = 125.0

    @Option(help: ArgumentHelp("Window (or headless image) size in points, as WIDTHxHEIGHT (pixels at scale 1).", valueName: "WxH"))
    var size = WindowSize(width: 1280, height: 800)

    @Option(help: ArgumentHelp("Device pixels a point, 1-4 (2 on a 2x screen). Default: GDK_SCALE, else the desktop's Xft.dpi / 96, else 1; headless, 1.", valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("In the window, the most frames a second (0 or none: every refresh of the display); headless, frames per simulated second (default 60).", valueName: "rate"))
    var fps: Double?

    @Flag(help: "Render without an X connection (use with --screenshot).")
    var headless = false

    @Option(help: ArgumentHelp("Write a PNG of the settled screen to this file, then exit.", valueName: "file"))
    var screenshot: String?

    @Option(help: ArgumentHelp("Record the run as an animation: .webp (animated WebP), .gif, .mp4 (H.264), or a folder of numbered PNGs (any other name). Headless: every frame of the simulated clock at --fps, the same bytes every time.", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Scale the recording down to fit WIDTHxHEIGHT pixels (its shape is kept). In the window: 960x960 unless given.", valueName: "WxH"))
    var recordSize: WindowSize?

    @Option(help: ArgumentHelp("Replay input from this script (one command a line, as docs/reference.md says; - reads standard input): headless on a simulated clock, in the window in real time.", valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("Write one JSON line per frame to this file: time, screen, transition, photo frame, alphas, drag.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("How a released pull moves: fluid (the finger's speed carries on, and the photo never passes its cell) or seeds (the seeds' curves exactly: from rest, the finish 0.25 s ease-in-out, the grid centred on every settled page).", valueName: "style"))
    var motion = MotionStyle.fluid

    @Flag(help: "Less motion: the zoom-in, the fly-back and the arrow keys' page turns cross-fade in 0.15 s instead of flying (gestures still follow the fingers). In the window it is also on when the desktop turns animations off (XSETTINGS Gtk/EnableAnimations).")
    var reduceMotion = false

    @Flag(help: "Never write a photo's file: Delete (and the viewer's trash button) moves nothing to the trash, and Ctrl+R turns photos on screen only.")
    var readOnly = false

    @Option(help: ArgumentHelp("The window system: auto (Wayland when WAYLAND_DISPLAY is set and its compositor answers, else X11), wayland or x11.", valueName: "name"))
    var backend = WindowBackend.auto

    @Flag(help: "Log debug messages.")
    var verbose = false

    @Flag(help: "Decode photos in the viewer's own process, not in confined decoder processes (a damaged or hostile file can then harm the viewer).")
    var noSandbox = false

    @Flag(help: "Neither read nor write the thumbnail cache shared with file managers ($XDG_CACHE_HOME/thumbnails), nor the grid's first screen kept between launches ($XDG_CACHE_HOME/photozoom/grid).")
    var noThumbnailCache = false

    @Argument(help: "Image files, folders (their images, sorted by name) or file:// URIs. None: the bundled photos.")
    var paths: [String] = []

    func validate() throws {
        if let fps, fps != 0, !(1...1000).contains(fps) { throw ValidationError("--fps must be 0 (the display's rate) or between 1 and 1000") }
        if let scale, !(1...4).contains(scale) { throw ValidationError("--scale must be between 1 and 4") }
        if recordSize != nil, record == nil { throw ValidationError("--record-size needs --record FILE") }
        if let scale, Double(max(size.width, size.height)) * scale > Double(WindowSize.maxSide) {
            throw ValidationError("--size times --scale must stay within \(WindowSize.maxSide) px a side")
        }
    }

    /// The decoder processes' hidden mode comes before any parsing: they take no options of the viewer's.
    static func main() {
        if CommandLine.arguments.dropFirst().first == DecoderProcess.argument {
            DecoderProcess.run(arguments: Array(CommandLine.arguments.dropFirst()))
        }
        main(nil)
    }

    func run() throws {
        MemoryPolicy.apply()
        restoreTerminationSignals()
        LoggingSystem.bootstrap { label in
            var handler = ConsoleLogHandler(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        let logger = Logger(label: "photozoom")
        let decoders = SandboxChoice.start(off: noSandbox, logger: logger)
        defer { withExtendedLifetime(decoders) {} }
        do {
            try run(logger: logger, decoders: decoders)
        } catch {
            // One line in the same form as every other message: `photozoom: error: …`.
            logger.error("\(error)")
            throw ExitCode.failure
        }
    }

    private func run(logger: Logger, decoders: DecoderPool?) throws {
        // A bad script stops the run before anything happens. Headless, it moves a frame at a time; in the
        // window, as a USB mouse reports: 125 times a second.
        let cap = fps == 0 ? nil : fps
        let simulatedFPS = cap ?? HeadlessRun.defaultFPS
        let timeline = try script.map { ScriptTimeline(try loadScript($0), frameInterval: headless ? 1 / simulatedFPS : 1 / PhotoZoomCommand.mouseReportRate) }

        // In a window a large tree the index knows shows at once, as remembered; headless runs walk it first.
        let library = PhotoSelection.collect(paths.map { PhotoLibrary.localPath(RawArguments.bytes(of: $0)) }, logger: logger,
                                             rememberedFrom: headless ? nil : PhotoSelection.rememberedFrom())
        decoders?.expect(library.formatsAhead)
        let thumbnails = noThumbnailCache ? nil : ThumbnailCache.defaultRoot().map { ThumbnailCache(root: $0, logger: logger) }
        let settings = RunSettings(size: Size(width: Double(size.width), height: Double(size.height)), scale: scale,
                                   fps: headless ? simulatedFPS : cap, motion: motion, reduceMotion: reduceMotion, library: library,
                                   trash: readOnly ? nil : Trash(), writesPhotos: !readOnly, thumbnails: thumbnails, logger: logger,
                                   script: timeline, trace: try trace.map(TraceFile.init(path:)), screenshot: screenshot,
                                   record: record.map { RecordingRequest(path: $0, size: recordSize) })
        if headless {
            try HeadlessRun(settings: settings).run()
        } else {
            try WindowRun(platform: try backend.platform(logger: logger), settings: settings).run()
        }
    }

    private func loadScript(_ path: String) throws -> [ScriptCommand] {
        let text: String
        do {
            text = try InputFile.text(path)
        } catch {
            throw ScriptFileError(message: "cannot read the script \(path == "-" ? "from standard input" : path): \(error)")
        }
        do {
            return try ScriptParser.parse(text).map(\.command)
        } catch {
            throw ScriptFileError(message: "\(path): \(error)")
        }
    }

    /// A parent may start us with SIGINT/SIGTERM blocked (Foundation's Process does); Ctrl+C and
    /// `kill` must still end the viewer.
    private func restoreTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}

extension WindowSize: ExpressibleByArgument {
    public static var defaultCompletionKind: CompletionKind { .default }
}

extension MotionStyle: ExpressibleByArgument {}
