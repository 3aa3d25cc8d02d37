import Animation
import App
import Foundation
import Geometry
import Glibc
import Logging
import Rendering
import X11Platform

/// The interactive loop: tick and draw at the frame rate while something moves; otherwise sleep in
/// `poll` until the X server or a finished thumbnail wakes it, so idle costs no CPU.
struct WindowRun {
    let size: Size
    let fps: Double
    let photos: [Photo]
    let emptyMessage: String
    let logger: Logger

    func run(screenshot: String?) throws {
        let window = try X11Window(displayName: nil, size: size, title: "Photos — PhotoZoomAnimator",
                                   allowSharedMemory: ProcessInfo.processInfo.environment["PHOTOZOOM_NO_SHM"] == nil,
                                   logger: logger)
        let wake = WakePipe()
        let clock = MonotonicClock(fps: fps)
        let app = PhotoViewerApp(photos: photos, size: size, emptyMessage: emptyMessage,
                                 loader: ThumbnailLoader(wake: wake.signal), clock: clock, logger: logger)
        let renderer = SceneRenderer()
        var nextFrame = clock.now

        while true {
            wake.drain()
            app.applyFinishedLoads()
            var timeout: Double?
            if app.isAnimating {
                let now = clock.now
                if now >= nextFrame {
                    app.tick()
                    // The next frame one interval on; after a stall, from now (no catch-up burst).
                    nextFrame = max(nextFrame + clock.frameInterval, now)
                }
                timeout = max(0, nextFrame - clock.now)
            }
            if app.needsDisplay {
                window.present { renderer.draw(app.root, on: $0) }
                app.didDisplay()
            }
            if let screenshot, app.isSettled {
                try save(renderer: renderer, app: app, to: screenshot)
                return
            }
            for event in window.events(waitingUpTo: timeout, orUntilReadable: wake.readDescriptor) {
                switch event {
                case .closeRequested:
                    return
                case .exposed:
                    app.setNeedsDisplay()
                case .resized(let newSize):
                    app.resize(to: newSize)
                case .input(let input):
                    switch app.handle(input) {
                    case .quit?:
                        return
                    case .screenshot?:
                        let path = ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath)
                        do {
                            try save(renderer: renderer, app: app, to: path)
                            logger.info("saved screenshot \(path)")
                        } catch {
                            logger.error("\(error)")
                        }
                    case nil:
                        break
                    }
                }
            }
        }
    }

    private func save(renderer: SceneRenderer, app: PhotoViewerApp, to path: String) throws {
        let frame = renderer.render(app.root, width: Int(app.size.width), height: Int(app.size.height))
        try ScreenshotFile.write(frame, to: path)
    }
}

/// A self-pipe that lets the decoding threads wake the `poll` of the main loop.
final class WakePipe: Sendable {
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe failed")
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    var signal: @Sendable () -> Void {
        { [writeDescriptor] in
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)   // a full pipe already means "wake up"
        }
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}
