import Foundation
import Testing
import TestSupport

/// The desktop asks for less motion (an XSETTINGS manager publishing `Gtk/EnableAnimations` = 0, as
/// GNOME's and Xfce's settings daemons do when animations are off): in a real window, the zoom-in and
/// the fly-back cross-fade in place in 0.15 s.
@Suite struct ReduceMotionWindowTests {
    struct Line: Decodable {
        let time: Double
        let screen: String
        let flight: String
        let flightMover: String?
        let photoFrame: [Double]?
    }

    @Test func theDesktopsSettingTurnsFlightsIntoCrossFades() throws {
        let session = try WindowSession()
        let settings = XSettingsOwner(client: session.client, integers: ["Gtk/EnableAnimations": 0, "Gtk/CursorBlinkTime": 1200])
        defer { withExtendedLifetime(settings) {} }
        let script = session.scratch.appendingPathComponent("open-close.txt").path
        try "tap 150 100\nwait 600\nkey Escape\nwait 600\n".write(toFile: script, atomically: true, encoding: .utf8)
        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        let shot = session.scratch.appendingPathComponent("end.png").path
        let (viewer, _) = try session.launch(["--size", "400x600", "--verbose", "--no-thumbnail-cache", "--script", script,
                                              "--trace", tracePath, "--screenshot", shot, TestImages.bundledFolder])
        #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)")
        #expect(viewer.standardError.contains("reduce motion"), "\(viewer.standardError)")
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        for stage in ["zoomingIn", "flyingBack"] {
            let flight = lines.filter { $0.flight == stage }
            try #require(!flight.isEmpty, "\(stage) in the trace")
            #expect(flight.allSatisfy { $0.flightMover == "crossFade" }, "\(stage): \(flight.map(\.flightMover))")
            let span = flight.last!.time - flight.first!.time
            #expect(span < 0.15 + 0.02, "\(stage): \(span) s in the air")
            let frames = flight.compactMap(\.photoFrame)
            #expect(frames.allSatisfy { zip($0, frames[0]).allSatisfy { abs($0 - $1) < 0.5 } }, "\(stage) stays in place: \(frames)")
        }
        #expect(lines.last?.screen == "grid")
    }
}
