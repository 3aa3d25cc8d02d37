import Foundation
import FuzzTargets
import Testing

/// Every input `make fuzz` found a crash with is kept in Findings/ (named after its target) and run
/// again here through the same target, after its fix: it must come back, whatever it gives.
@Suite struct FuzzFindingTests {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Findings")

    static var files: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: findings, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.path < $1.path }
    }

    @Test func theFindingsAreThere() {
        #expect(!Self.files.isEmpty, "the fuzzer's findings so far are kept in \(Self.findings.path)")
    }

    @Test(arguments: files)
    func aFindingRunsThrough(_ finding: URL) throws {
        let target = try #require(FuzzTarget(finding: finding.lastPathComponent), "named after its target")
        target.run([UInt8](try Data(contentsOf: finding)))
    }
}
