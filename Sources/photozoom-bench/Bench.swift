import Animation
import App
import Foundation
import Geometry
import Imaging
import Library
import Pixels
import Rendering
import Sandbox
import SystemPackage
import X11Platform

/// `make bench`: the costs that decide how the viewer feels, as a Markdown table (release build).
@main
enum Bench {
    static func main() throws {
        guard let folder = BundledPhotos.folder() else {
            print("the bundled photos were not found")
            exit(1)
        }
        let photos = PhotoLibrary.collect([FilePath(folder)]).photos
        let big = folder + "/Kleiber_by_Lukas_Baubkus.jpg"
        var figures: [(String, Double)] = []
        defer {
            print("")
            for (key, value) in figures { print("\(key)=\(String(format: "%.2f", value))") }
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let part = arguments.first {
            figures += try only(part, arguments: arguments, photos: photos, big: big)
            return
        }
        figures += try ownFigures(photos: photos, big: big)
        // Last of this process's own figures: it sets this process's allocator as the viewer's.
        figures += try SandboxFigures.measure(source: big)
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            print("\n(no DISPLAY: window presentation not measured; `make bench` runs under xvfb-run)")
            return
        }
        try presentFigures(photos: photos)
        figures += try WindowFigures.measure(sources: photos.map(\.path))
        figures += try ClipFigures.measure(sources: photos.map(\.path))
    }

    /// `photozoom-bench PART` (`make bench BENCH=PART`): one part of the figures.
    static func only(_ part: String, arguments: [String], photos: [Photo], big: String) throws -> [(String, Double)] {
        let sources = photos.map(\.path)
        switch part {
        case "window": return try WindowFigures.measure(sources: sources)
        case "settle": return try WindowFigures.measureSettle(sources: sources)   // the warm grid's last change
        case "xwayland":   // the walk as an X client of sway's Xwayland
            return try WindowFigures.withPhotoFolder(sources: sources) { folder in
                [("xwayland_144hz_frames_missed_percent", try WindowFigures.xwaylandWalk(WindowBench(viewer: WindowBench.viewerBesideThisBench, folder: folder)))]
            }
        case "library": return try LibraryFigures.measure()   // a 100,000-photo tree
        case "library-1m": return try LibraryFigures.measure(.million)   // a 1,000,000-photo tree over 25 years
        case "library-tree" where arguments.count >= 2:   // only make the library bench's tree (to profile a launch on it)
            try LibraryFigures.makeTree(at: arguments[1], arguments.dropFirst(2).first == "1m" ? .million : .hundredThousand)
            return []
        case "import": return try ImportFigures.measure()   // 500 photos arriving in an open library
        case "formats": return try WindowFigures.withPhotoFolder(sources: sources) { try FormatFigures.measure(jpegFolder: $0) }
        case "sandbox": return try SandboxFigures.measure(source: big)
        case "clips": return try ClipFigures.measure(sources: sources)   // clips playing, their sound's sync, a tap on one, among photos
        case "clip-grid": return try ClipGridFigures.measureAlone(sources: sources)   // 200 photos and 50 clips; 50 clips in turn
        default:
            print("photozoom-bench: no part named \(part) (window, settle, xwayland, library, library-1m, library-tree FOLDER [1m], import, formats, sandbox, clips, clip-grid)")
            exit(2)
        }
    }

    /// Decoding, the thumbnail cache, rendering and encoding in this process: the table's first rows.
    static func ownFigures(photos: [Photo], big: String) throws -> [(String, Double)] {
        print("| what | runs | median ms | min ms | max ms |")
        print("|---|---:|---:|---:|---:|")
        report("decode 6028x3391 JPEG, full size", runs: 5) { _ = try? ImageDecoder.decode(path: big) }
        report("decode 6028x3391 JPEG for a 180 px cell (DCT 1/8 + shrink)", runs: 10) {
            _ = try? ImageDecoder.decode(path: big, atLeast: (180, 180))
        }
        // Colour: an Adobe RGB photo brought to sRGB (once per decoded picture, never per frame).
        if let adobe = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc"))),
           let decoded = try? ImageDecoder.decode(path: big) {
            report("convert that 6028x3391 photo from Adobe RGB to sRGB (lcms2)", runs: 5) {
                ColourTarget.sRGB.convert(decoded.image, from: .icc(adobe))
            }
        }
        report("thumbnails of all \(photos.count) bundled photos, one thread", runs: 3) {
            for photo in photos { _ = try? ImageDecoder.decode(path: photo.path, atLeast: (180, 180)) }
        }
        do {
            let cache = ThumbnailCache(root: FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-thumbnails-\(getpid())").path)
            defer { try? FileManager.default.removeItem(atPath: cache.root) }
            for photo in photos { _ = try? cache.thumbnail(path: photo.file, covering: 180) }
            report("the same from the freedesktop thumbnail cache, one thread", runs: 10) {
                for photo in photos { _ = try? cache.thumbnail(path: photo.file, covering: 180) }
            }
        }
        return try renderFigures(photos: photos, big: big)
    }

    /// The grid and the open photo drawn into images and frames, and the memory floor.
    static func renderFigures(photos: [Photo], big: String) throws -> [(String, Double)] {
        for size in [Size(width: 1280, height: 800), Size(width: 1920, height: 1080)] {
            let clock = ManualClock()
            let app = PhotoViewerApp(photos: photos, size: size, emptyMessage: "", queue: DecodeQueue(), clock: clock)
            app.settle(stepping: clock)
            let renderer = SceneRenderer()
            let w = Int(size.width), h = Int(size.height)
            try report("render the grid \(w)x\(h) into an image", runs: 30) { _ = try renderer.render(app.root, width: w, height: h) }
            let frame = try renderer.render(app.root, width: w, height: h)
            report("encode a \(w)x\(h) frame as PNG", runs: 5) { _ = try? frame.pngData() }
        }
        var figures: [(String, Double)] = []
        do {   // a 2× screen: 1280x800 points are 2560x1600 pixels
            let clock = ManualClock()
            let app = PhotoViewerApp(photos: photos, size: Size(width: 1280, height: 800), emptyMessage: "",
                                     queue: DecodeQueue(), clock: clock, pixelScale: 2)
            app.settle(stepping: clock)
            let renderer = SceneRenderer(), frame = PixelImage(width: 2560, height: 1600)
            figures.append(("grid_2x_frame_ms", try report("draw the grid 1280x800 pt at 2x (2560x1600 px) into a frame, as the window does",
                                                       runs: 30) { try renderer.draw(app.root, into: frame, scale: 2) }))
        }
        figures.append(("pinch_frame_ms", try benchZoom(photos: photos, index: photos.firstIndex { $0.path == big } ?? 0)))
        figures.append(("memcpy_floor_ms", report("copy one 1920x1080 frame (memcpy: the memory floor)", runs: 60,
                                                  FrameCopy(width: 1920, height: 1080).copy)))
        figures.append(("memcpy_floor_2x_ms", report("copy one 2560x1600 frame (the floor at 2x)", runs: 60,
                                                     FrameCopy(width: 2560, height: 1600).copy)))
        return figures
    }

    /// A grid frame drawn and presented in an X window, through MIT-SHM and through cairo_xlib_surface.
    static func presentFigures(photos: [Photo]) throws {
        for shm in [true, false] {
            let size = Size(width: 1920, height: 1080)
            let window = try X11Window(displayName: nil, size: size, title: "photozoom-bench", allowSharedMemory: shm)
            let clock = ManualClock()
            let app = PhotoViewerApp(photos: photos, size: size, emptyMessage: "", queue: DecodeQueue(), clock: clock)
            app.settle(stepping: clock)
            let renderer = SceneRenderer()
            let path = window.presentsThroughSharedMemory ? "MIT-SHM" : "cairo_xlib_surface"
            var offset = 0.0
            try report("draw + present a 1920x1080 grid frame, \(path)", runs: 60) {
                offset = offset == 0 ? 1 : 0   // a frame that really changed
                app.grid.scrolling.setOffset(offset)
                try window.present { renderer.draw(app.root, on: $0) }
            }
            try report("present only (empty draw), \(path)", runs: 60) { try window.present { _ in } }
        }
    }

    /// The open photo (6028x3391) at 1920x1080: at fit, at 100 % (its full-size decode), and frames of
    /// a pinch (the zoom changes every frame). Returns the median pinch frame as the window draws it, ms.
    static func benchZoom(photos: [Photo], index: Int) throws -> Double {
        let size = Size(width: 1920, height: 1080)
        let clock = ManualClock()
        let app = PhotoViewerApp(photos: photos, size: size, emptyMessage: "", queue: DecodeQueue(), clock: clock)
        app.settle(stepping: clock)
        func key(_ name: String) {
            _ = app.handle(.key(name: name, modifiers: []))
            app.settle(stepping: clock)
        }
        for _ in 0...index { key("Right") }   // the first key shows the selection on photo 0
        key("Return")
        let renderer = SceneRenderer()
        try report("render the open photo at fit, 1920x1080", runs: 30) { _ = try renderer.render(app.root, width: 1920, height: 1080) }
        key("1")
        let zoom = app.viewer.map { String(format: "%.2f", $0.zoomScale) } ?? "?"
        try report("render it at 100 % (zoom \(zoom)x fit, full-size decode)", runs: 30) {
            _ = try renderer.render(app.root, width: 1920, height: 1080)
        }
        key("0")
        let middle = Point(x: 960, y: 540)
        app.viewer?.beginPinch(center: middle)
        // The pinch asks for a larger decode; it is in before the frames are timed, as it is in the
        // window a moment into the gesture.
        app.viewer?.pinch(scale: 3, center: middle)
        app.waitForLoads()
        let frame = PixelImage(width: 1920, height: 1080)
        var windowFrame = Double.nan
        for speed in [false, true] {
            var scale = 1.0
            renderer.drawsForSpeed = speed
            windowFrame = try report("draw pinch frames from fit to 3x into a frame, \(speed ? "as the window does (nearest level, cheap filter)" : "with the good filter")",
                   runs: 100) {   // five sweeps
                scale = scale >= 3 ? 1.05 : scale + 0.1
                app.viewer?.pinch(scale: scale, center: middle)
                try renderer.draw(app.root, into: frame)
            }
        }
        app.viewer?.endPinch(center: middle)
        return windowFrame
    }
}
