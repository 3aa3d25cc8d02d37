import Foundation
import Testing
import TestSupport

/// ARCHITECTURE.md's picture of the modules is what `scripts/module-map` draws from Package.swift now: a module
/// added, removed or given another dependency fails here until the picture is drawn again
/// (`scripts/module-map > docs/modules.svg`).
@Suite struct ModuleMapTests {
    static let repository = TestImages.repository

    @Test func thePictureOfTheModulesIsPackageSwifts() throws {
        let folder = try TemporaryFolder()
        // A scratch folder of its own: the test run holds the package's.
        let package = try run("/usr/bin/env", ["swift", "package", "--package-path", Self.repository.path,
                                                "--scratch-path", folder.path + "/scratch", "dump-package"])
        try package.write(to: URL(fileURLWithPath: folder.path + "/package.json"))
        let drawn = try run("/usr/bin/env", ["python3", Self.repository.path + "/scripts/module-map", folder.path + "/package.json"])
        let kept = try Data(contentsOf: Self.repository.appendingPathComponent("docs/modules.svg"))
        #expect(drawn == kept, "docs/modules.svg is not Package.swift's: run scripts/module-map > docs/modules.svg")
        let svg = String(decoding: drawn, as: UTF8.self)
        for module in ["App", "Imaging", "Sandbox", "Session", "X11Platform", "WaylandPlatform", "photozoom"] {
            #expect(svg.contains("<title>\(module)</title>"), "\(module) is in the picture")
        }
    }

    /// `executable` with `arguments`: what it printed, once it ended with status 0.
    private func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments.joined(separator: " "))")
        return printed
    }
}
