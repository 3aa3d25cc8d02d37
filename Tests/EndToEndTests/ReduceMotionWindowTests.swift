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
                                              "--trace", tracePath, "--screenshot", shot])
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

    /// The switch flipped while the window is open: the flights after it cross-fade, the ones before
    /// flew; and flipped back, they fly again. First the settings change in place (the daemon rewrites
    /// its property), then a new daemon takes over (its MANAGER message).
    @Test func theDesktopsSwitchTakesEffectWhileTheWindowIsOpen() throws {
        let session = try WindowSession()
        var settings: XSettingsOwner? = XSettingsOwner(client: session.client, integers: ["Gtk/EnableAnimations": 1])
        let openClose = "tap 150 100\nwait 700\nkey Escape\nwait 1500\n"
        let script = session.scratch.appendingPathComponent("open-close.txt").path
        try (String(repeating: openClose, count: 3) + "key q\n").write(toFile: script, atomically: true, encoding: .utf8)
        let tracePath = session.scratch.appendingPathComponent("trace.jsonl").path
        let (viewer, _) = try session.launch(["--size", "400x600", "--verbose", "--no-thumbnail-cache", "--script", script,
                                              "--trace", tracePath])
        func lines() -> [Line] {
            ((try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { try? JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }
        /// How many times the photo has flown back into the grid.
        func returns() -> Int {
            let flights = lines().map(\.flight)
            return zip(flights, flights.dropFirst()).filter { $0 == "flyingBack" && $1 == "none" }.count
        }
        #expect(session.wait(seconds: 30) { returns() >= 1 }, "the first open and close")
        settings?.set(["Gtk/EnableAnimations": 0])
        #expect(session.wait(seconds: 30) { returns() >= 2 }, "the second")
        settings = nil
        settings = XSettingsOwner(client: session.client, integers: ["Gtk/EnableAnimations": 1])
        #expect(viewer.waitForExit(seconds: 30) == 0, "\(viewer.standardError)")
        #expect(viewer.standardError.contains("reduce motion on") && viewer.standardError.contains("reduce motion off"),
                "\(viewer.standardError)")
        // Each open and close, by the movers of its flights.
        var rounds: [Set<String>] = [[]]
        for line in lines() {
            if line.flight == "none" { if !rounds.last!.isEmpty { rounds.append([]) } } else if let mover = line.flightMover {
                rounds[rounds.count - 1].insert(mover)
            }
        }
        rounds.removeAll { $0.isEmpty }
        #expect(rounds.count == 6, "three opens and three closes: \(rounds)")
        #expect(rounds.map { $0.contains("crossFade") } == [false, false, true, true, false, false], "\(rounds)")
    }
}
