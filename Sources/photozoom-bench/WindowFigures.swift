import Animation
import CX11
import Foundation
import Histogram
import TestSupport

/// The window figures of `make bench` (the issue's targets), as table rows and as `key=value` lines.
enum WindowFigures {
    static let photoCount = 200

    /// Plays the walk and the browse on a generated folder; returns the figures by key.
    /// `PHOTOZOOM_BENCH_PHOTOS=DIR` keeps the generated folder there and uses it again next time.
    static func measure(sources: [String]) throws -> [(String, Double)] {
        try withPhotoFolder(sources: sources) { folder in try measure(folder: folder) }
    }

    /// Only the warm grid's last change beside nsxiv's (`warmGridSettles`), the thumbnail cache warmed
    /// by a launch first.
    static func measureSettle(sources: [String]) throws -> [(String, Double)] {
        try withPhotoFolder(sources: sources) { folder in
            let viewer = WindowBench.viewerBesideThisBench
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-cache-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: cache) }
            _ = try WindowBench.watchLaunch(viewer, ["--size", "1920x1080", folder], cacheHome: cache)
            let settle = try warmGridSettles(viewer: viewer, folder: folder, cacheHome: cache)
            return [("grid_warm_last_change_ms", settle.ours), ("grid_warm_last_change_nsxiv_ms", settle.nsxiv)]
        }
    }

    /// The walk as an X client of a headless sway's Xwayland whose output runs at 144 Hz. What reaches the
    /// compositor is what Xwayland commits (its Wayland requests logged): each frame of the walk's motion is
    /// carried by the first commit after it went up (a frame followed by another before a commit is never
    /// shown), and between the commits that carried frames, a refresh with none is one the motion missed.
    /// Returns those two, % of the refreshes of the motion.
    static func xwaylandWalk(_ bench: WindowBench) throws -> Double {
        guard HeadlessSway.hasXwayland else {
            print("(sway, Xwayland or xhost is not installed: the walk through Xwayland at 144 Hz is not measured)")
            return .nan
        }
        let requests = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-xwayland-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: requests) }
        let sway = try HeadlessSway(config: "output HEADLESS-1 mode --custom 1920x1080@144Hz\ndefault_border none\n",
                                    xwayland: true, requestLog: requests)
        let walk = try bench.play(WindowBench.walk, environment: ["DISPLAY": sway.xDisplay ?? ""], backend: "x11")
        // Put up at once: a frame is sent as its present begins, once drawn from the time it was begun (its
        // `time`); its present goes on until the server has copied it.
        var sent: [Double] = []
        for (before, frame) in zip(walk.trace, walk.trace.dropFirst()) where before.animating || before.translation != nil {
            sent.append(frame.time + (frame.drawMs ?? 0) / 1000)
        }
        let commits = try WaylandRequestLog(path: requests).busiestSurface
        guard !commits.isEmpty else {
            print("(Xwayland logged no commit of the window: the walk through Xwayland is not measured)")
            return .nan
        }
        let delivery = WaylandRequestLog.delivery(of: sent, by: commits,
                                                  realtimeAhead: Date().timeIntervalSince1970 - MonotonicClock.seconds(),
                                                  interval: 1000 / 144)
        print(String(format: "the walk as an X client of Xwayland at 144 Hz (frames put up at once): %d frames in motion, %d never reached sway, %d refreshes passed with no new frame (%.1f %%)",
                     delivery.frames, delivery.dropped, delivery.refreshesWithout, delivery.percent))
        return delivery.percent
    }

    /// Runs `body` with the folder of generated photos (made from `sources` unless it is kept and made).
    static func withPhotoFolder(sources: [String], _ body: (String) throws -> [(String, Double)]) throws -> [(String, Double)] {
        let kept = ProcessInfo.processInfo.environment["PHOTOZOOM_BENCH_PHOTOS"]
        let folder = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-photos-\(getpid())").path
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: folder) } }
        if !PhotoFolder.isMade(count: photoCount, in: folder) {
            let made = Date()
            try PhotoFolder.make(count: photoCount, width: 4000, height: 3000, from: sources, in: folder)
            print("(made \(photoCount) 4000x3000 JPEGs, quality 90, in \(String(format: "%.0f", -made.timeIntervalSinceNow)) s)")
        }
        return try body(folder)
    }

    private static func measure(folder: String) throws -> [(String, Double)] {
        let viewer = WindowBench.viewerBesideThisBench
        let bench = WindowBench(viewer: viewer, folder: folder)
        let walk = try bench.play(WindowBench.walk)
        let motion = try motionFigures(bench, walk: walk)
        let launch = try launchFigures(bench, viewer: viewer, folder: folder, walk: walk)
        return try FormatFigures.measure(jpegFolder: folder) + motion + launch
    }

    /// One row of a pacing table.
    static func row(_ name: String, _ h: Histogram<UInt64>) {
        print(String(format: "| %-58@ | %5d | %9.2f | %7.2f | %7.2f | p90 %.1f, p99 %.1f, %d over 20 ms |", name as NSString,
                     h.totalCount, FramePacing.ms(h, 50), Double(h.min) / 1000, Double(h.max) / 1000,
                     FramePacing.ms(h, 90), FramePacing.ms(h, 99), FramePacing.count(h, over: 20)))
    }

    /// The walk's frames: at 1080p, at 4K, as a Wayland client at 144 Hz, through Xwayland, and while `r` records.
    private static func motionFigures(_ bench: WindowBench, walk: WindowBench.Run) throws -> [(String, Double)] {
        let pacing = FramePacing(walk.trace)
        print("\nIn a window, 1920x1080, \(photoCount) photos of 4000x3000 (open, pinch to 3x, 0, pull to close, flick):\n")
        print("| frames | count | median ms | min ms | max ms | tail |")
        print("|---|---:|---:|---:|---:|---|")
        row("frame interval, transitions (zoom in, pull, fly back)", pacing.transition)
        row("frame interval, grid scrolling", pacing.grid)
        row("frame interval, viewer (pinch, zoom)", pacing.viewer)
        row("draw", pacing.draw)
        row("present", pacing.present)
        row("input to photon (drag: server event to the refresh showing it)", pacing.inputToPhoton)
        print(String(format: "\nmissed refreshes in the walk: %llu (in %d of %d frames in motion)%@",
                     pacing.missedRefreshes, pacing.framesThatMissed, pacing.framesInMotion,
                     walk.log.contains("X Present") ? "" : " — no X Present: timer-paced, not counted"))
        let otherScreens = try otherScreensFigures(bench)
        let xwayland144 = try xwaylandWalk(bench)

        // The same walk while `r` records the window (encoded on a worker as it plays).
        let recorded = try bench.play(WindowBench.recordedWalk)
        let recordedPacing = FramePacing(recorded.trace)
        row("frame interval, all, while recording (r)", recordedPacing.all)
        row("frame interval, all, the same walk not recording", pacing.all)
        print(String(format: "\nrecording the walk with r: %d file(s), %.1f MB; the run took %.1f s (%.1f s without recording); peak RSS %.0f MiB (%.0f)%@",
                     recorded.recordings.count, Double(recorded.recordings.reduce(0, +)) / 1e6, recorded.seconds, walk.seconds,
                     recorded.peakRSSMiB, walk.peakRSSMiB,
                     recorded.log.contains("fell behind") ? "; frames were left out" : "; no frame left out"))
        return otherScreens + [("xwayland_144hz_frames_missed_percent", xwayland144),
            ("frame_interval_p99_ms", FramePacing.ms(pacing.all, 99)),
            ("missed_refreshes_walk", Double(pacing.missedRefreshes)),
            ("input_to_photon_p50_ms", FramePacing.ms(pacing.inputToPhoton, 50)),
            ("transition_interval_p99_ms", FramePacing.ms(pacing.transition, 99)),
            ("grid_interval_p99_ms", FramePacing.ms(pacing.grid, 99)),
            ("frame_render_p99_ms", FramePacing.ms(pacing.draw, 99)),
            ("frame_present_p99_ms", FramePacing.ms(pacing.present, 99)),
            ("recording_interval_p99_ms", FramePacing.ms(recordedPacing.all, 99)),
            ("recording_mb", Double(recorded.recordings.reduce(0, +)) / 1e6),
        ]
    }

    /// The same walk in a 3840x2160 window (1920x1080 points at 2x), where the screen is that large, and as a native
    /// Wayland client of a headless sway whose output runs at 144 Hz (the window tiled: the whole output), input
    /// through its virtual pointer and keyboard.
    private static func otherScreensFigures(_ bench: WindowBench) throws -> [(String, Double)] {
        var pacing4K: FramePacing?
        if screenFits(width: 3840, height: 2160) {
            let p = FramePacing(try bench.play(WindowBench.walk, scale: 2).trace)
            pacing4K = p
            row("4K (2x): frame interval, all in motion", p.all)
            row("4K (2x): draw", p.draw)
            print(String(format: "missed refreshes in the 4K walk: %llu (in %d of %d frames in motion)",
                         p.missedRefreshes, p.framesThatMissed, p.framesInMotion))
        } else {
            print("(the screen is smaller than 3840x2160: the 4K walk is not measured; `make bench` runs one that large)")
        }
        var pacing144: FramePacing?
        if HeadlessSway.isInstalled {
            let sway = try HeadlessSway(config: "output HEADLESS-1 mode --custom 1920x1080@144Hz\ndefault_border none\nseat * hide_cursor 500\n")
            let p = FramePacing(try bench.play(WindowBench.walk, environment: sway.waylandEnvironment, backend: "wayland").trace)
            pacing144 = p
            row("Wayland 144 Hz: frame interval, all in motion", p.all)
            row("Wayland 144 Hz: draw", p.draw)
            print(String(format: "missed refreshes in the walk as a Wayland client at 144 Hz: %llu (in %d of %d frames in motion, %.1f %%)",
                         p.missedRefreshes, p.framesThatMissed, p.framesInMotion, 100 * Double(p.framesThatMissed) / Double(max(1, p.framesInMotion))))
        } else {
            print("(sway is not installed: the Wayland walk at 144 Hz is not measured)")
        }
        return [("missed_refreshes_walk_4k", pacing4K.map { Double($0.missedRefreshes) } ?? .nan),
                ("draw_p99_ms_4k", pacing4K.map { FramePacing.ms($0.draw, 99) } ?? .nan),
                ("wayland_144hz_frames_missed_percent", pacing144.map { 100 * Double($0.framesThatMissed) / Double(max(1, $0.framesInMotion)) } ?? .nan)]
    }

    /// Launches (cold, warm, on one photo), the photo sharp after a tap and after a page turn, and memory over a
    /// browse through every photo and 150 opens and closes.
    private static func launchFigures(_ bench: WindowBench, viewer: String, folder: String, walk: WindowBench.Run) throws -> [(String, Double)] {
        let sharp = tapToSharp(walk.trace, fitWidth: 1440)
        let turns = pageTurnsSettled(try bench.play(WindowBench.pageTurns).trace, fitWidth: 1440)
        print(String(format: "\npage turns with the keys, from the key's frame to rest and sharp: %@ ms",
                     turns.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-cache-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let cold = try bench.play(WindowBench.launch, cacheHome: cache)
        // A launch is timed from the process's start, which the kernel gives in 10 ms ticks: the warm
        // figure is the median of five launches.
        let warms = try (0..<5).map { _ in try bench.play(WindowBench.launch, cacheHome: cache).milliseconds("grid complete") }.sorted()
        let warm = warms[2]
        let single = try bench.play(WindowBench.launch, target: folder + "/IMG_0100.jpg")
        print(String(format: "\nlaunch to a complete grid of the %d photos: %.0f ms with an empty thumbnail cache (filled with the EXIF thumbnails after %.0f ms), %.0f ms with a warm one (the median of %@)",
                     photoCount, cold.milliseconds("grid complete"), cold.milliseconds("grid filled"), warm,
                     warms.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
        print(String(format: "launch with one photo to that photo sharp in the viewer: %.0f ms; at most %.0f MiB, the viewer and its decoders together (PSS; the viewer's own RSS %.0f)",
                     single.milliseconds("photo sharp on screen"), single.togetherPeakPSSMiB, single.peakRSSMiB))
        let settle = try warmGridSettles(viewer: viewer, folder: folder, cacheHome: cache)
        let browse = try bench.play(WindowBench.browse(photoCount))
        let cycles = try bench.play(WindowBench.openAndClose(150))
        // 20 cycles in (1.3 s a cycle, 20 samples a second), and the last 20.
        let early = cycles.rssSamples.prefix(20 * 26).suffix(20 * 26).max() ?? .nan
        let late = cycles.rssSamples.suffix(20 * 26).max() ?? .nan
        print(String(format: "RSS opening and closing a photo 150 times: %.0f MiB after 20 cycles, %.0f MiB over the last 20, %.0f MiB at most",
                     early, late, cycles.peakRSSMiB))
        print("\npeak RSS: walk \(Int(walk.peakRSSMiB)) MiB; pressing Right through \(photoCount) photos \(Int(browse.peakRSSMiB)) MiB, "
              + "its largest decoder \(Int(browse.decoderPeakRSSMiB)) MiB")
        return [("tap_to_sharp_ms", sharp.ms), ("page_turn_settled_ms", turns.max() ?? .nan),
                ("first_photo_ms", single.milliseconds("photo sharp on screen")), ("grid_filled_ms", cold.milliseconds("grid filled")),
                ("grid_cold_ms", cold.milliseconds("grid complete")), ("grid_warm_ms", warm),
                ("grid_warm_last_change_ms", settle.ours), ("grid_warm_last_change_nsxiv_ms", settle.nsxiv),
                ("sharp_at_flight_fraction", sharp.fraction), ("rss_browse200_mib", browse.peakRSSMiB),
                ("decoder_rss_max_mib", browse.decoderPeakRSSMiB), ("first_photo_peak_rss_mib", single.togetherPeakPSSMiB),
                ("rss_open_close150_mib", cycles.peakRSSMiB)]
    }

    /// When the screen stops changing after a launch on the folder with a warm thumbnail cache: ours,
    /// and nsxiv's thumbnail mode beside it (its own cache warmed by a launch first), in one run, ms
    /// (NaN for nsxiv where it is not installed). Prints both, and what changed after the first
    /// complete grid.
    static func warmGridSettles(viewer: String, folder: String, cacheHome: String) throws -> (ours: Double, nsxiv: Double) {
        let ours = try WindowBench.watchLaunch(viewer, ["--size", "1920x1080", folder], cacheHome: cacheHome)
        let nsxiv = ["/usr/bin/nsxiv", "/usr/local/bin/nsxiv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var theirs: [ScreenWatcher.Change] = []
        if let nsxiv {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("photozoom-bench-nsxiv-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: cache) }
            let arguments = ["-t", "-g", "1920x1080+0+0", "-r", folder]
            _ = try WindowBench.watchLaunch(nsxiv, arguments, cacheHome: cache)
            theirs = try WindowBench.watchLaunch(nsxiv, arguments, cacheHome: cache)
        }
        let last = ours.last?.at ?? .nan, nsxivLast = theirs.last?.at ?? .nan
        func list(_ changes: [ScreenWatcher.Change]) -> String {
            changes.map { String(format: "%.0f ms (%.2f %%)", $0.at * 1000, $0.rmsePercent) }.joined(separator: ", ")
        }
        print(String(format: "warm launch, the screen's last change: %.0f ms; nsxiv -t (warm cache) %@ (%@ of nsxiv's)",
                     last * 1000, nsxiv == nil ? "not installed" as NSString : String(format: "%.0f ms", nsxivLast * 1000) as NSString,
                     String(format: "%.2f×", last / nsxivLast) as NSString))
        print("  the screen's changes, from launch (RMSE from the grab before): \(list(ours))")
        if !theirs.isEmpty { print("  nsxiv's: \(list(theirs))") }
        return (last * 1000, nsxivLast * 1000)
    }

    /// Whether the X screen is at least `width`×`height`.
    static func screenFits(width: Int, height: Int) -> Bool {
        guard let display = XOpenDisplay(nil) else { return false }
        defer { XCloseDisplay(display) }
        let screen = XDefaultScreen(display)
        return XDisplayWidth(display, screen) >= width && XDisplayHeight(display, screen) >= height
    }

    /// For each page turn: from the first frame on the new page (the frame the key moved) to the
    /// first frame at rest drawn from a decode of at least 90 % of the fit width, ms.
    static func pageTurnsSettled(_ trace: [WindowBench.Frame], fitWidth: Int) -> [Double] {
        var turns: [Double] = []
        for (i, frame) in trace.enumerated() where i > 0 && frame.page != nil && trace[i - 1].page != nil
            && frame.page != trace[i - 1].page {
            guard let rest = trace[i...].first(where: {
                !$0.animating && ($0.imagePixels?[0] ?? 0) * 10 >= fitWidth * 9
            }) else { continue }
            turns.append((rest.time - frame.time) * 1000)
        }
        return turns
    }

    /// From the first frame of the zoom-in to the first frame drawn from an image at least 90 % of
    /// the fit width (device px); and how far through the flight that was (0…1; over 1: after it).
    /// From the press of a tap (the first input the trace shows) to the photo at 90 % of its fit width: the wait a
    /// user has, the decode a press starts included.
    static func pressToSharp(_ trace: [WindowBench.Frame], fitWidth: Int) -> Double {
        guard let press = trace.first(where: { $0.inputAt != nil })?.inputAt,
              let sharp = trace.first(where: { $0.screen == "viewer" && ($0.imagePixels?[0] ?? 0) * 10 >= fitWidth * 9 }) else { return .nan }
        return (sharp.time - press) * 1000
    }

    static func tapToSharp(_ trace: [WindowBench.Frame], fitWidth: Int) -> (ms: Double, fraction: Double) {
        guard let start = trace.firstIndex(where: { $0.flight == "zoomingIn" }) else { return (.nan, .nan) }
        let flightEnd = trace[start...].firstIndex { $0.flight != "zoomingIn" }.map { trace[$0].time } ?? .nan
        guard let sharp = trace[start...].first(where: { ($0.imagePixels?[0] ?? 0) * 10 >= fitWidth * 9 }) else { return (.nan, .nan) }
        let t0 = trace[start].time
        return ((sharp.time - t0) * 1000, (sharp.time - t0) / (flightEnd - t0))
    }
}
