import CX11
import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// The viewer as an X client of Xwayland under a Wayland compositor (weston, headless): scripted
/// input through XTest moves it as in Xvfb, and its window shows the pixels the headless run makes.
@Suite(.serialized, .enabled(if: WestonServer.isInstalled, "weston or Xwayland is not installed (apt-get install weston xwayland)"))
final class XwaylandTests {
    @Test func aScriptInTheXwaylandWindowEndsOnTheHeadlessFrame() throws {
        // Xwayland starts for the first X client: the session's own connection.
        let session = try WindowSession(server: WestonServer())
        let script = try TemporaryFolder()
        // Open the second photo, then page to the third (chelsea.png).
        let file = try script.write("script.txt", Array("tap 150 100\nwait 800\nkey Right\nwait 600\n".utf8))
        let arguments = ["--size", "500x400", "--no-thumbnail-cache", "--script", file]
        let shot = session.scratch.appendingPathComponent("headless.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--screenshot", shot] + arguments)
        #expect(status == 0, "\(errors)")

        let (viewer, window) = try session.launch(arguments + ["--verbose"])
        try session.expectWindow(window, toShow: try ImageDecoder.decode(path: shot).image)
        #expect(session.wait { session.title(of: window) == "chelsea.png — Photos" }, "\(session.title(of: window) ?? "")")
        #expect(viewer.standardError.contains("input through XInput 2.2"), "\(viewer.standardError)")
        #expect(!viewer.standardError.contains("X protocol error"), "\(viewer.standardError)")
    }
}
