import Foundation
import Testing
import TestSupport

/// A clip's sound, heard where a user hears it: the viewer in an Xvfb window plays to a PulseAudio server of the test's
/// own (a null sink), whose monitor parec records. The tone is there while the clip plays, silence after space pauses
/// it, and the tone again once space plays it on; the trace's sound lead stays within what a viewer can notice.
/// In `ClipWindowTests`' suite, one test at a time: a viewer playing beside another made its pictures go up late.
extension ClipWindowTests {
    static let hasPulse = PulseServer.isInstalled

    struct Picture: Decodable {
        let animationFrame: Int?
    }

    struct SoundLine: Decodable {
        let time: Double
        let presentedAt: Double?
        let soundLeadMs: Double?
    }

    @Test(.enabled(if: hasPulse, "PulseAudio is not installed (apt-get install pulseaudio pulseaudio-utils)"))
    func theToneIsHeardWhileTheClipPlaysAndSilenceWhilePaused() throws {
        try hearTheToneAndSilenceWhilePaused(on: try PulseServer())
    }

    /// The same through PipeWire's pulse server, as GNOME and KDE run it now.
    @Test(.enabled(if: PulseServer.isPipeWireInstalled, "PipeWire is not installed (apt-get install pipewire pipewire-pulse wireplumber)"))
    func theToneIsHeardThroughPipeWireToo() throws {
        try hearTheToneAndSilenceWhilePaused(on: try PulseServer(pipeWire: ()))
    }

    private func hearTheToneAndSilenceWhilePaused(on pulse: PulseServer) throws {
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.song], in: folder)[.song])
        let session = try WindowSession()
        let trace = session.scratch.appendingPathComponent("trace.jsonl").path
        let recording = try pulse.record()
        let (viewer, window) = try session.launch(["--size", "320x300", "--trace", trace, clip], environment: pulse.environment)
        _ = window
        // Heard for 2 s, then paused for 1.5 s, then played on for 1.5 s.
        #expect(session.wait(seconds: 10) { ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains("soundLeadMs") },
                "the sound began: \(viewer.standardError)")
        let began = Date().timeIntervalSince(recording.started)
        session.client.movePointer(to: 160, 150)
        usleep(2_000_000)
        session.client.press(key: "space")
        let paused = Date().timeIntervalSince(recording.started)
        usleep(1_500_000)
        session.client.press(key: "space")
        let resumed = Date().timeIntervalSince(recording.started)
        usleep(1_500_000)
        let stopped = Date().timeIntervalSince(recording.started)
        var samples = try recording.stop()
        // The monitor may begin a little after parec does: its samples end when it stopped.
        let late = max(0, stopped - Double(samples.count) / 48000)
        samples = [Int16](repeating: 0, count: Int(late * 48000)) + samples
        viewer.process.terminate()
        _ = viewer.waitForExit(seconds: 10)
        // While it plays, from the tone's onset to the pause, every quarter second. A PulseAudio just started gives its
        // first stream about 1.5 s of latency (the null sink's), and the sound is taken to the pictures' time: the
        // onset may come that late after the first picture that followed it.
        let starts: [Double] = Array(stride(from: began - 1, to: paused - 0.25, by: 0.25))
        let quarters: [(at: Double, loudness: Double)] = starts.map { start in (start, PulseServer.loudness(samples, from: start, to: start + 0.25)) }
        let onset = quarters.firstIndex { $0.loudness > 1000 } ?? quarters.count
        let toned = quarters[onset...]
        let playing = toned.map(\.loudness).min() ?? 0
        let pitch = toned.first.map { PulseServer.pitch(samples, from: $0.at + 0.25, to: $0.at + 0.5) } ?? 0
        let silent = PulseServer.loudness(samples, from: paused + 0.3, to: resumed - 0.1)
        let again = PulseServer.loudness(samples, from: resumed + 0.4, to: resumed + 1.3)
        print("clip sound: loudness \(Int(playing)) at least, playing (from \(String(format: "%.2f", (toned.first?.at ?? 0) - began)) s after its first picture followed it), \(Int(silent)) paused, \(Int(again)) played on; pitch \(Int(pitch)) Hz")
        let heard: [Int] = quarters.map { Int($0.loudness) }
        #expect(toned.count >= 2 && playing > 1000, "the tone from its onset, \(toned.first.map { $0.at - began } ?? 0) s after the first picture: \(heard)")
        #expect(abs(pitch - 440) < 10, "at 440 Hz: \(pitch)")
        #expect(silent < 30, "silence while paused: \(silent)")
        #expect(again > 1000, "the tone again once it plays on: \(again)")
        // The sound against the pictures as the display showed them (ITU-R BT.1359: +45 ms to -125 ms).
        let leads = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(SoundLine.self, from: Data($0.utf8)) }
            .compactMap { line in line.soundLeadMs.map { $0 + ((line.presentedAt ?? line.time) - line.time) * 1000 } }
        #expect(leads.count > 60, "pictures following the sound: \(leads.count)")
        // In sync is the sound's offset held: every picture but the odd one that a busy machine put up a refresh late
        // (1 of some 200 in a fifth of the runs here, on this build and the one before it alike: 47–63 ms) is within the
        // window, and the median well inside it.
        let outside = leads.filter { !($0 < 45 && $0 > -125) }
        let median = leads.sorted()[leads.count / 2]
        #expect(outside.count * 50 <= leads.count && median < 30 && median > -100,
                "in sync: \(leads.min() ?? 0) to \(leads.max() ?? 0) ms, median \(median), \(outside.count) of \(leads.count) outside")
    }

    /// No sound server: one line says so, and the clip plays silent.
    @Test(.enabled(if: hasPulse, "PulseAudio is not installed (apt-get install pulseaudio pulseaudio-utils)"))
    func withNoSoundServerTheClipPlaysSilentAfterOneLine() throws {
        let session = try WindowSession()
        let folder = try TemporaryFolder()
        let clip = try #require(TestClips.make([.song], in: folder)[.song])
        let trace = session.scratch.appendingPathComponent("trace.jsonl").path
        let (viewer, _) = try session.launch(["--size", "320x300", "--trace", trace, clip],
                                             environment: ["PULSE_SERVER": "unix:" + folder.path + "/no-such-socket"])
        #expect(session.wait(seconds: 10) { viewer.standardError.contains("no sound server") }, "\(viewer.standardError)")
        func pictures() -> Int {
            let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.compactMap { try? JSONDecoder().decode(Picture.self, from: Data($0.utf8)).animationFrame }.max() ?? 0
        }
        let before = pictures()
        usleep(1_500_000)
        viewer.process.terminate()
        _ = viewer.waitForExit(seconds: 10)
        let lines = viewer.standardError.split(separator: "\n").filter { $0.contains("sound") }
        #expect(lines.count == 1, "one line: \(lines)")
        #expect(pictures() > before + 30, "it plays on: \(before) pictures, then \(pictures())")
    }
}
