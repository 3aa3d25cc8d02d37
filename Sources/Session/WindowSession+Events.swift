import App
import Foundation
import Geometry
import Library
import Outputs
import WindowSystem

extension WindowSession {
    /// One event of the window; `.end` when it ends the run (closed, or the app quits).
    func handle(_ event: WindowEvent) -> Turn {
        switch event {
        case .presented(let msc, let time):
            let shown = pacer.shown(msc: msc, at: time, onAGrid: window.presentsOnAGrid)
            if !inFlight.isEmpty { onScreen(inFlight.removeFirst(), shown: shown) }
        case .desktopSettingsChanged:
            // The desktop's animations switch, flipped while the window is open, takes effect at
            // once (a flight under way finishes as it began).
            let reduces = settings.reduceMotion || platform.animationsOff()
            if reduces != reducesMotion {
                reducesMotion = reduces
                app.reducesMotion = reduces
                logger.debug("reduce motion \(reduces ? "on" : "off"): the desktop turned animations \(reduces ? "off" : "on") (Gtk/EnableAnimations)")
            }
        case .refreshRateChanged(let rate):
            logger.debug("the output's refresh rate is now \(rate.map { String(format: "%.2f Hz", $0) } ?? "unknown")")
            pacer.rateChanged(to: rate, lead: window.refreshLead)
        case .closeRequested:
            return .end
        case .exposed:
            app.setNeedsDisplay()
        case .dropped(let lines):
            open(dropped: lines)
        case .resized(let newSize):
            app.resize(to: Size(width: newSize.width / scale, height: newSize.height / scale))
        case .scaleChanged(let newScale):
            scale = newScale
            app.pixelScale = newScale
            app.setNeedsDisplay()
        case .input(let input):
            return app.handle(input).map(perform) ?? .goOn
        }
        return .goOn
    }

    /// As from the command line: a folder, files, or one file among its folder's photos.
    private func open(dropped lines: [[UInt8]]) {
        let (local, remote, text) = DroppedItems.split(lines)
        for uri in remote { logger.warning("\(uri): only files on this computer can be opened") }
        if local.isEmpty, let first = text.first {
            logger.warning("the dropped text names no file (\(first.prefix(60).debugDescription)); the photos shown stay")
        }
        guard !local.isEmpty else { return }
        let paths = local.map(PhotoLibrary.localPath)
        logger.info("opening \(paths.count == 1 ? "\(paths[0])" : "\(paths.count) dropped items")")
        let selection = PhotoSelection.collect(paths, logger: logger, rememberedFrom: PhotoSelection.rememberedFrom())
        app = Self.makeApp(selection, size: app.size, settings: settings, colour: colour, scale: scale, reducesMotion: reducesMotion,
                           clock: clock, wake: wake)
        follow(selection)
    }

    /// What the app asks of the run that only the run can do.
    func perform(_ request: PhotoViewerApp.Request) -> Turn {
        switch request {
        case .quit:
            return .end
        case .toggleFullScreen:
            window.toggleFullScreen()
        case .screenshot:
            let path = ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath)
            do {
                try AppOutputs.screenshot(of: app, renderer: renderer, colour: colour, to: path)
                logger.info("saved screenshot \(path)")
            } catch {
                logger.error("\(error)")
            }
        case .toggleRecording:
            if recordings.isRecordingByKey {
                recordings.stopKeyRecording(at: clock.now)
                app.setNeedsDisplay()   // the dot goes
            } else {
                do {
                    try startRecording(ScreenshotFile.freshName(in: FileManager.default.currentDirectoryPath, extension: "webp"), limit: nil)
                    logger.info("recording to \(recordings.keyPath ?? "")")
                } catch {
                    logger.error("\(error)")
                }
            }
        case .copy(let photo):
            if window.offerClipboard(ClipboardPhoto.items(for: photo, logger: logger)) {
                logger.info("copied \(photo.name)")
            } else {
                logger.warning("the clipboard could not be taken; nothing was copied")
            }
        }
        return .goOn
    }
}
