import CX11
import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// The viewer among other desktop programs, on a private Xvfb: recording the window with `r`,
/// copying with Ctrl+C (read back with xclip), files dropped on it through XDND, and a photo dragged out of it.
@Suite(.serialized) final class DesktopTests {
    let session: WindowSession
    var client: XTestClient { session.client }

    init() throws { session = try WindowSession() }

    /// Whether the window's top-right corner shows the recording dot.
    static func hasRedDot(_ image: PixelImage) -> Bool {
        let p = image.pixel(x: image.width - 14, y: 14)
        return p >> 16 & 0xFF > 200 && p >> 8 & 0xFF < 110 && p & 0xFF < 110
    }

    @Test func rRecordsTheWindowWithoutItsRedDot() throws {
        let (viewer, window) = try session.launch(["--size", "400x500", "--no-thumbnail-cache"])
        #expect(session.wait { self.session.title(of: window) != nil })
        usleep(500_000)   // the first frames
        client.movePointer(to: 200, 250)   // no window manager: keys go to the window under the pointer
        client.press(key: "r")
        #expect(session.wait { self.client.capture(window).map(Self.hasRedDot) ?? false }, "no red dot while recording")
        client.movePointer(to: 150, 100)
        client.click(button: 1)   // open a photo
        #expect(session.wait { self.session.title(of: window)?.hasSuffix("— Photos") ?? false })
        usleep(600_000)
        client.press(key: "r")
        #expect(session.wait { viewer.standardError.contains("saved recording") }, "\(viewer.standardError)")
        #expect(session.wait { !(self.client.capture(window).map(Self.hasRedDot) ?? true) }, "the dot stays after recording")

        let made = try FileManager.default.contentsOfDirectory(atPath: session.scratch.path).filter { $0.hasSuffix(".webp") }
        let name = try #require(made.first, "no recording in \(session.scratch.path): \(viewer.standardError)")
        #expect(made.count == 1)
        #expect(name.range(of: #"^photozoom-\d{8}-\d{6}\.webp$"#, options: .regularExpression) != nil)
        #expect(viewer.standardError.contains("saved recording \(session.scratch.path)/\(name)"), "\(viewer.standardError)")
        let decoded = try AnimationReader.webp([UInt8](Data(contentsOf: session.scratch.appendingPathComponent(name))))
        #expect((decoded.width, decoded.height) == (400, 500))
        // The zoom into the viewer is in it: frames between the grid and the open photo (how many depends
        // on how fast the window draws: 9 under AddressSanitizer on a busy machine, about 20 without).
        #expect(decoded.frames.count >= 4, "only \(decoded.frames.count) frames")
        #expect(!decoded.frames.contains { Self.hasRedDot($0.image) }, "the red dot is in the recording")
        // It ends on the open photo, on black.
        #expect(decoded.frames.last!.image.pixel(x: 200, y: 480) & 0xFF_FFFF < 0x10_1010)
    }

    /// `--record` in the window: from the first frame until the window closes, at most 30 frames a second.
    @Test func recordInTheWindowWritesTheFileWhenTheWindowCloses() throws {
        let script = session.scratch.appendingPathComponent("open.txt")
        try "wait 300\ntap 150 100\nwait 900\nkey q\n".write(to: script, atomically: true, encoding: .utf8)
        let (viewer, _) = try session.launch(["--size", "400x300", "--no-thumbnail-cache", "--record", "run.gif", "--script", script.path])
        #expect(viewer.waitForExit(seconds: 60) == 0, "\(viewer.standardError)")
        let path = session.scratch.appendingPathComponent("run.gif").path
        #expect(viewer.standardError.contains("saved recording run.gif"), "\(viewer.standardError)")
        let decoded = try AnimationReader.gif([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect((decoded.width, decoded.height) == (400, 300))
        // The zoom into the viewer (0.5 s) at up to 30 frames a second (as many as the window drew: fewer
        // under AddressSanitizer), and no frame closer than a GIF plays.
        #expect(decoded.frames.count >= 4, "\(decoded.frames.count) frames")
        for (a, b) in zip(decoded.frames, decoded.frames.dropFirst()) { #expect(b.time - a.time > 0.0199) }
        #expect(!decoded.frames.contains { Self.hasRedDot($0.image) })
    }

    @Test(.enabled(if: DesktopTools.has("xclip"), "xclip is not installed (apt-get install xclip)"))
    func ctrlCPutsTheOpenPhotoOnTheClipboard() throws {
        // A panorama: its PNG is megabytes, sent in INCR chunks.
        let photo = TestImages.repository.appendingPathComponent("Images/aitzgorri_pano_by_Aitzol_Berasategi.jpg").path
        let (viewer, window) = try session.launch(["--size", "500x400", photo])
        #expect(session.wait { self.session.title(of: window)?.hasPrefix("aitzgorri_pano") ?? false })
        client.movePointer(to: 250, 200)
        client.press(key: "c", holding: ["Control_L"])
        #expect(session.wait { viewer.standardError.contains("copied aitzgorri_pano_by_Aitzol_Berasategi.jpg") }, "\(viewer.standardError)")

        func paste(_ target: String) throws -> Data {
            let (status, output) = try DesktopTools.run("xclip", ["-selection", "clipboard", "-o", "-t", target],
                                                        environment: ["DISPLAY": session.server.display])
            #expect(status == 0, "xclip -t \(target)")
            return output
        }
        let targets = String(decoding: try paste("TARGETS"), as: UTF8.self).split(separator: "\n")
        #expect(Set(targets).isSuperset(of: ["text/uri-list", "image/png"]), "\(targets)")
        #expect(String(decoding: try paste("text/uri-list"), as: UTF8.self) == "file://\(photo)\r\n")
        let png = try paste("image/png")
        #expect(png.count > 256 * 1024, "large enough to need INCR: \(png.count) bytes")
        let pasted = try ImageDecoder.decode(data: [UInt8](png))
        #expect(pasted.format == .png)
        let original = try ImageDecoder.decode(path: photo).image
        #expect((pasted.image.width, pasted.image.height) == (original.width, original.height))
        #expect(PixelComparison(pasted.image, original, channelTolerance: 0).differing == 0)
    }

    /// A Live Photo copied (Ctrl+C) puts both its files on the clipboard: the still and its movie.
    @Test(.enabled(if: TestClips.isInstalled, "ffmpeg or exiftool is not installed")) func ctrlCOnALivePhotoCopiesItsStillAndItsMovie() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.bundledFolder + "/chelsea.png", as: "IMG_0042.JPG")
        let made = try TestClips.make([.numbered], in: folder)
        try FileManager.default.moveItem(atPath: made[.numbered]!, toPath: folder.path + "/IMG_0042.MOV")
        let (viewer, window) = try session.launch(["--size", "500x400", "--no-thumbnail-cache", folder.path])
        client.movePointer(to: 250, 200)
        // Return opens the grid's photo once its thumbnail is in (a photo still loading does not open).
        let opened = session.wait(seconds: 30) {
            client.press(key: "Return")
            return WindowSession.wait(seconds: 1) { self.session.title(of: window)?.hasPrefix("IMG_0042.JPG") ?? false }
        }
        #expect(opened, "\(viewer.standardError)")
        client.press(key: "c", holding: ["Control_L"])
        #expect(session.wait { viewer.standardError.contains("copied IMG_0042.JPG") }, "\(viewer.standardError)")
        let (status, output) = try DesktopTools.run("xclip", ["-selection", "clipboard", "-o", "-t", "text/uri-list"],
                                                    environment: ["DISPLAY": session.server.display])
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self) == "file://\(folder.path)/IMG_0042.JPG\r\nfile://\(folder.path)/IMG_0042.MOV\r\n")
    }

    /// A photo held still (0.5 s) and carried out of the window is dropped into another program over XDND: it
    /// gets the file's URI and the picture as a PNG, and the viewer stays on its grid.
    @Test func aPhotoHeldAndCarriedOutIsDroppedIntoAnotherProgram() throws {
        let folder = try TemporaryFolder()
        try folder.copy(TestImages.repository.appendingPathComponent("Images/coffee.png").path, as: "coffee.png")
        let photo = folder.path + "/coffee.png"
        let (viewer, window) = try session.launch(["--size", "500x400", folder.path])
        #expect(session.wait { self.session.title(of: window) == "Photos — PhotoZoomAnimator" })
        let target = try XdndDropTarget(display: session.server.display, x: 600, y: 50, width: 400, height: 300)
        defer { target.stop() }
        usleep(500_000)   // the first frames
        client.movePointer(to: 60, 150)   // the first cell
        client.press(button: 1)
        usleep(800_000)   // held still: lifted
        for step in 1...20 {
            client.movePointer(to: 60 + step * 37, 150 + step * 2)
            usleep(30_000)
        }
        #expect(session.wait { target.state.positions > 0 }, "the program under the pointer was never told: \(viewer.standardError)")
        client.release(button: 1)
        #expect(session.wait { target.state.finished }, "no drop: \(target.state), \(viewer.standardError)")
        let received = target.state
        #expect(Set(received.offered).isSuperset(of: ["text/uri-list", "image/png"]), "\(received.offered)")
        #expect(received.uriList.map { String(decoding: $0, as: UTF8.self) } == "file://\(photo)\r\n")
        let png = try #require(received.png, "no picture")
        let dropped = try ImageDecoder.decode(data: png)
        let original = try ImageDecoder.decode(path: photo).image
        #expect(dropped.format == .png && (dropped.image.width, dropped.image.height) == (original.width, original.height))
        #expect(PixelComparison(dropped.image, original, channelTolerance: 0).differing == 0)
        #expect(viewer.process.isRunning && self.session.title(of: window) == "Photos — PhotoZoomAnimator", "the grid stays: \(viewer.standardError)")
        #expect(!viewer.standardError.contains("warning"), "\(viewer.standardError)")
    }

    @Test func filesDroppedOnTheWindowOpenAsFromTheCommandLine() throws {
        let folder = try TemporaryFolder()
        for name in ["chelsea.png", "coffee.png"] {
            try folder.copy(TestImages.repository.appendingPathComponent("Images/\(name)").path, as: "dropped \(name)")
        }
        // A folder below: a dropped file's neighbours are its own folder's; a dropped folder is its whole tree.
        try folder.copy(TestImages.repository.appendingPathComponent("Images/astronaut.png").path, as: "nested/dropped astronaut.png")
        let (viewer, window) = try session.launch(["--size", "500x400"])
        #expect(session.wait { self.session.title(of: window) == "Photos — PhotoZoomAnimator" })
        let source = XdndSource(client: client)

        // One file, as a file manager sends it (escaped): it opens among its folder's photos.
        let uri = "file://" + folder.path.replacingOccurrences(of: " ", with: "%20") + "/dropped%20coffee.png"
        let outcome = source.drop("\(uri)\r\n", on: window, at: 250, 200)
        #expect(outcome == .init(accepted: true, finished: true, succeeded: true))
        #expect(session.wait { self.session.title(of: window) == "dropped coffee.png — Photos" }, "\(self.session.title(of: window) ?? "")")
        client.movePointer(to: 250, 200)
        client.press(key: "Left")   // its neighbour in the dropped file's folder
        #expect(session.wait { self.session.title(of: window) == "dropped chelsea.png — Photos" }, "\(self.session.title(of: window) ?? "")")

        // A list with something that is not a local file: that one is named, the rest open (a folder: its grid).
        let mixed = "# from a browser\r\nhttps://example.org/x.jpg\r\nfile://\(folder.path)\r\n"
        #expect(source.drop(mixed, on: window, at: 100, 100).succeeded)
        #expect(session.wait { viewer.standardError.contains("photozoom: warning: https://example.org/x.jpg: only files on this computer can be opened\n") },
                "\(viewer.standardError)")
        #expect(session.wait { self.session.title(of: window) == "Photos — PhotoZoomAnimator" }, "\(self.session.title(of: window) ?? "")")
        let shot = session.scratch.appendingPathComponent("folder.png").path
        let dump = session.scratch.appendingPathComponent("folder.json").path
        let script = session.scratch.appendingPathComponent("dump.txt")
        try "dump \(dump)\n".write(to: script, atomically: true, encoding: .utf8)
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "500x400", "--script", script.path, "--screenshot", shot, folder.path])
        #expect(status == 0, "\(errors)")
        let photos = try DumpedNode.all(in: dump).filter { $0.name.hasPrefix("cell.") }.compactMap(\.photo)
        #expect(photos.sorted() == ["dropped astronaut.png", "dropped chelsea.png", "dropped coffee.png"], "the tree, as from the command line")
        try session.expectWindow(window, toShow: try ImageDecoder.decode(path: shot).image)

        // What it cannot take (no file list) is refused, and the viewer goes on.
        #expect(source.drop("x", type: "image/png", on: window, at: 100, 100) == .init(accepted: false, finished: true, succeeded: false))
        #expect(viewer.process.isRunning)
    }
}
