import Foundation
import Imaging
import Testing
import TestSupport

/// The viewer on a 144 Hz Wayland desktop: an X client of sway's Xwayland, a server run by another
/// user. It presents through X Present from shared memory passed by descriptor (the server could not
/// attach a SysV segment of ours), reads the output's 144 Hz from RandR, and shows the frames the
/// headless run makes.
@Suite(.serialized, .enabled(if: SwayServer.isInstalled, "sway, Xwayland or xhost is not installed (apt-get install sway xwayland x11-xserver-utils)"))
struct SwayTests {
    struct Line: Decodable {
        let animating: Bool
        let msc: UInt64?
        let missed: UInt64?
    }

    @Test func aWalkUnderSwayAt144HzIsPresentedAtItsRefreshes() throws {
        let session = try WindowSession(server: SwayServer())
        let script = try TemporaryFolder()
        let file = try script.write("walk.txt", Array("tap 150 100\nwait 700\ndown 250 250\nmove 260 370 300\nwait 50\nup\nwait 600\n".utf8))
        let arguments = ["--size", "500x400", "--no-thumbnail-cache", "--script", file]
        let shot = session.scratch.appendingPathComponent("headless.png").path
        let (status, errors) = try ViewerProcess.run(["--headless", "--screenshot", shot] + arguments)
        #expect(status == 0, "\(errors)")

        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        let (viewer, window) = try session.launch(arguments + ["--verbose", "--trace", tracePath])
        try session.expectWindow(window, toShow: try ImageDecoder.decode(path: shot).image)
        #expect(viewer.standardError.contains("presenting through X Present (2 MIT-SHM pixmaps, memfd)"), "\(viewer.standardError)")
        #expect(viewer.standardError.contains("output refresh 143.88 Hz"), "\(viewer.standardError)")
        #expect(session.wait { viewer.waitForExit(seconds: 0) != nil || (try? String(contentsOfFile: tracePath, encoding: .utf8))?
            .split(separator: "\n").count ?? 0 > 60 })
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let moving = zip(lines, lines.dropFirst()).filter { $0.0.animating }.map(\.1)
        #expect(moving.count > 20 && moving.allSatisfy { $0.msc != nil && $0.missed != nil },
                "each frame in motion went up at a refresh the server reported")
    }
}
