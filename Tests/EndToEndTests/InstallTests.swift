import Foundation
import Imaging
import Testing
import TestSupport

/// `make install` and `make uninstall` into a folder of the test's own, as a user installs the viewer
/// under /usr/local; and the launcher as desktop-file-validate sees it.
@Suite(.serialized) struct InstallTests {
    static let repository = TestImages.repository

    @Test(.enabled(if: DesktopTools.has("desktop-file-validate"), "desktop-file-utils is not installed (apt-get install desktop-file-utils)"))
    func theLauncherIsAValidDesktopEntry() throws {
        let (status, output) = try DesktopTools.run("desktop-file-validate", [Self.repository.appendingPathComponent("Desktop/photozoom.desktop").path])
        #expect(status == 0)
        #expect(output.isEmpty, "\(String(decoding: output, as: UTF8.self))")
    }

    /// Runs `make TARGET PREFIX=…` in the repository; its status and everything it printed. Awaited, not waited
    /// for: the release build takes minutes, and a test blocking its thread that long would leave the other tests
    /// one thread of the two a two-core machine's test run has.
    static func make(_ target: String, prefix: String) async throws -> (Int32, String) {
        let log = try TemporaryFolder()
        let file = log.path + "/make.log"
        FileManager.default.createFile(atPath: file, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.arguments = ["-C", repository.path, target, "PREFIX=\(prefix)"]
        process.standardOutput = output
        process.standardError = output
        let status = try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { finished.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { finished.resume(throwing: error) }
        }
        try output.close()
        return (status, try String(contentsOfFile: file, encoding: .utf8))
    }

    static func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    @Test func makeInstallGivesAnAppThatRunsWithoutTheSwiftToolchainAndUninstallRemovesIt() async throws {
        let prefix = try TemporaryFolder()
        let (status, log) = try await Self.make("install", prefix: prefix.path)
        try #require(status == 0, "make install failed: \(log.suffix(3000))")

        let installed = Self.files(under: prefix.path)
        for file in ["bin/photozoom", "share/applications/photozoom.desktop", "share/icons/hicolor/scalable/apps/photozoom.svg",
                     "share/man/man1/photozoom.1", "share/photozoom/Images/CREDITS.md", "share/photozoom/Images/chelsea.png"] {
            #expect(installed.contains(file), "\(file) is not installed: \(installed)")
        }
        let binary = prefix.path + "/bin/photozoom"

        // The Swift runtime and Foundation are in the binary: ldd lists nothing of the toolchain's.
        let (_, ldd) = try DesktopTools.run("ldd", [binary])
        let libraries = String(decoding: ldd, as: UTF8.self)
        #expect(!libraries.contains("libswift") && !libraries.contains("Foundation") && !libraries.contains("/opt/swift"), "\(libraries)")

        // With the toolchain's folder hidden (a private mount namespace), it still runs: --version, and
        // a headless screenshot of the photos installed beside it.
        let shot = prefix.path + "/grid.png"
        let (hidden, output) = try DesktopTools.run("unshare", ["--mount", "sh", "-c",
            "mount -t tmpfs none /opt/swift && ls /opt/swift | wc -l && \(binary) --version && \(binary) --headless --size 320x240 --screenshot \(shot) --no-thumbnail-cache"],
            seconds: 60)
        #expect(hidden == 0, "\(String(decoding: output, as: UTF8.self))")
        #expect(String(decoding: output, as: UTF8.self) == "0\n\(Self.version)\n")
        #expect(try ImageDecoder.decode(path: shot).image.width == 320)
        try FileManager.default.removeItem(atPath: shot)

        // The man page comes from the argument parser (mdoc: `.It Fl -record Ar file`): the options are in it.
        let manual = try String(contentsOfFile: prefix.path + "/share/man/man1/photozoom.1", encoding: .utf8)
        for option in ["-record Ar file", "-record-size Ar WxH", "-script Ar file", "-headless", "-version"] {
            #expect(manual.contains(".It Fl \(option)"), "\(option) is not in the man page")
        }
        let icon = try String(contentsOfFile: prefix.path + "/share/icons/hicolor/scalable/apps/photozoom.svg", encoding: .utf8)
        #expect(icon.contains("<svg"))
        let desktop = try String(contentsOfFile: prefix.path + "/share/applications/photozoom.desktop", encoding: .utf8)
        #expect(desktop.contains("Icon=photozoom\n") && desktop.contains("Exec=photozoom %F\n"))

        let (removed, uninstallLog) = try await Self.make("uninstall", prefix: prefix.path)
        #expect(removed == 0, "\(uninstallLog)")
        #expect(Self.files(under: prefix.path) == [], "make uninstall left files behind")
    }

    /// The version `--version` prints, as the sources say it.
    static var version: String {
        let source = (try? String(contentsOf: repository.appendingPathComponent("Sources/Library/Version.swift"), encoding: .utf8)) ?? ""
        return source.firstMatch(of: /string = "([^"]+)"/).map { String($0.1) } ?? "?"
    }
}
