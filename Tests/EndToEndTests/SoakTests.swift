import Foundation
import Glibc
import Testing
import TestSupport

/// Long use in a real window: open/close cycles, then random input. The process's memory, open files
/// and threads are read at the start, the middle and the end; none may grow, and the viewer must
/// neither crash nor hang. In the suite it lasts about a minute; `make soak` sets
/// PHOTOZOOM_SOAK_CYCLES=500 and PHOTOZOOM_SOAK_MINUTES=20 (and PHOTOZOOM_SOAK_PHOTOS, a folder).
@Suite struct SoakTests {
    struct Sample: CustomStringConvertible {
        let rssMiB: Double
        let files: Int
        let threads: Int

        /// From /proc: VmRSS and Threads of its status, and the entries of its fd folder.
        init?(pid: Int32) {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let files = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
            func field(_ name: String) -> Double? {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                    .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }.flatMap { Double($0) }
            }
            guard let kib = field("VmRSS"), let threads = field("Threads") else { return nil }
            rssMiB = kib / 1024
            self.files = files.count
            self.threads = Int(threads)
        }

        var description: String { String(format: "RSS %.1f MiB, %d open files, %d threads", rssMiB, files, threads) }
    }

    @Test(.timeLimit(.minutes(60)))
    func longUseKeepsMemoryFilesAndThreadsFlat() throws {
        let environment = ProcessInfo.processInfo.environment
        let cycles = environment["PHOTOZOOM_SOAK_CYCLES"].flatMap(Int.init) ?? 24
        let minutes = environment["PHOTOZOOM_SOAK_MINUTES"].flatMap(Double.init) ?? 0.35
        let photos = environment["PHOTOZOOM_SOAK_PHOTOS"] ?? TestImages.bundledFolder
        let server = try XvfbServer()
        let scratch = try TemporaryFolder()
        let script = SoakScript(cycles: cycles, randomSeconds: minutes * 60, seed: 20261123, folder: scratch.path)
        let scriptPath = try scratch.write("soak.txt", Array(script.text.utf8))
        // Read-only: random taps reach the viewer's trash button, and the photos are the package's own.
        let viewer = try ViewerProcess(["--read-only", "--size", "\(SoakScript.size.width)x\(SoakScript.size.height)", "--script", scriptPath, photos],
                                       environment: ["DISPLAY": server.display], directory: scratch.url)
        // Far longer than the script: past it, the viewer hangs.
        let deadline = Date().addingTimeInterval(Double(cycles) * 3 + (minutes * 60 + min(minutes * 60, SoakScript.warmUpSeconds)) * 2
                                                 + 3 * SoakScript.settleSeconds + 120)
        var samples: [String: Sample] = [:]
        while viewer.process.isRunning && Date() < deadline {
            for mark in ["start", "middle", "end"] where samples[mark] == nil
                && FileManager.default.fileExists(atPath: scratch.path + "/mark-\(mark).json") {
                samples[mark] = Sample(pid: viewer.pid)
                print("soak \(mark): \(samples[mark].map(String.init(describing:)) ?? "the process was gone")")
            }
            usleep(50_000)
        }
        let status = try #require(viewer.waitForExit(seconds: 10), "the viewer hung (still running past the script's end)")
        #expect(status == 0, "the viewer failed: \(viewer.standardError); \(server.state)")
        let start = try #require(samples["start"]), middle = try #require(samples["middle"]), end = try #require(samples["end"])
        // The marks bring the screen back as it was: else the samples compare two different screens.
        let screens = try ["start", "middle", "end"].map { try Self.screen(at: scratch.path + "/mark-\($0).json") }
        for (name, screen) in zip(["middle", "end"], screens.dropFirst()) {
            #expect(screen == screens[0], "the screen at the \(name) mark is not the start's: \(screen.symmetricDifference(screens[0]).sorted())")
        }
        for (name, sample) in [("middle", middle), ("end", end)] {
            #expect(abs(sample.rssMiB - start.rssMiB) <= start.rssMiB * 0.10, "RSS at the \(name): \(sample), at the start: \(start)")
            #expect(sample.files == start.files, "open files at the \(name): \(sample), at the start: \(start)")
            #expect(sample.threads == start.threads, "threads at the \(name): \(sample), at the start: \(start)")
        }
    }

    /// What a mark's dump shows, coarsely: the nodes shown but the cells and day headers (which ones
    /// depends on where the grid is scrolled), the selection ring and the debug overlay (`d` toggles it, and
    /// no key takes it away), and the cells' sizes (the grid's density).
    static func screen(at path: String) throws -> Set<String> {
        var screen = Set<String>()
        for node in try DumpedNode.root(in: path).shown {
            if node.name.hasPrefix("cell.") {
                screen.insert("cells of \(Int(node.frame[2].rounded(.down))) pt")
            } else if !["header.", "grid.selection", "debugOverlay"].contains(where: node.name.hasPrefix) {
                screen.insert(node.name)
            }
        }
        return screen
    }
}
