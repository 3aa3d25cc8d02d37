import CX11
import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// The viewer under a real window manager (openbox, in Xvfb): F11 asks it for full screen through
/// EWMH, and the layout follows the window's new size.
@Suite(.serialized, .enabled(if: DesktopTools.has("openbox"), "openbox is not installed (apt-get install openbox)"))
final class WindowManagerTests {
    static let screen = (width: 1024, height: 768)
    let session: WindowSession
    private let openbox = Process()
    var client: XTestClient { session.client }

    init() throws {
        session = try WindowSession(server: XvfbServer(width: Self.screen.width, height: Self.screen.height))
        openbox.executableURL = URL(fileURLWithPath: DesktopTools.path("openbox")!)
        openbox.arguments = ["--sm-disable"]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = session.server.display
        openbox.environment = env
        openbox.standardOutput = FileHandle.nullDevice
        openbox.standardError = FileHandle.nullDevice
        try openbox.run()
        // It manages the screen once it names itself on the root window (EWMH).
        let root = XDefaultRootWindow(session.client.display)
        _ = session.wait { self.session.client.property(root, "_NET_SUPPORTING_WM_CHECK") != nil }
    }

    deinit { openbox.killNow() }

    func isFullScreen(_ window: Window) -> Bool {
        client.property(window, "_NET_WM_STATE")?.longs.contains(Int(client.atom("_NET_WM_STATE_FULLSCREEN"))) ?? false
    }

    func headless(width: Int, height: Int) throws -> PixelImage {
        let shot = session.scratch.appendingPathComponent("\(width)x\(height).png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "\(width)x\(height)", "--screenshot", shot])
        #expect(status == 0, "\(errors)")
        return try ImageDecoder.decode(path: shot).image
    }

    @Test func f11FillsTheScreenAndRestoresTheWindow() throws {
        let (_, window) = try session.launch(["--size", "500x400"])
        #expect(session.wait { self.client.size(of: window) == (500, 400) })
        // The window manager framed it: the window is no longer a child of the root.
        #expect(!client.children(of: XDefaultRootWindow(client.display)).contains(window))
        try session.expectWindow(window, toShow: headless(width: 500, height: 400))

        client.movePointer(to: 300, 250)
        XSetInputFocus(client.display, window, RevertToParent, Time(CurrentTime))
        client.press(key: "F11")
        #expect(session.wait { self.isFullScreen(window) }, "_NET_WM_STATE has no _NET_WM_STATE_FULLSCREEN")
        #expect(session.wait { self.client.size(of: window) == (Self.screen.width, Self.screen.height) },
                "\(client.size(of: window)) after F11")
        // The layout follows: the grid as a 1024x768 run draws it.
        try session.expectWindow(window, toShow: headless(width: Self.screen.width, height: Self.screen.height))

        client.press(key: "F11")
        #expect(session.wait { !self.isFullScreen(window) })
        #expect(session.wait { self.client.size(of: window) == (500, 400) }, "\(client.size(of: window)) after F11 again")
        try session.expectWindow(window, toShow: headless(width: 500, height: 400))
    }
}
