import Foundation
import Testing
import TestSupport

/// ARCHITECTURE.md's shape of the code: no function over 80 lines, no type over 600 across its files
/// (`scripts/code-shape` reads the sources; it lists each excess).
@Suite struct CodeShapeTests {
    static let repository = TestImages.repository

    @Test func everyFunctionAndTypeOfTheSourcesIsWithinItsLimit() throws {
        let (status, printed) = try shape(of: Self.repository.appendingPathComponent("Sources").path)
        #expect(status == 0, "\(printed)")
    }

    /// The checker itself: a function of 81 lines, and a type of 601 lines in two files (a brace in a string and
    /// in a comment not counted), are both named.
    @Test func aLongFunctionAndATypeLongAcrossItsFilesAreNamed() throws {
        let folder = try TemporaryFolder()
        let body = (0..<79).map { "        let x\($0) = \"}\" // }" }.joined(separator: "\n")
        try "struct Long {\n    func tooLong() {\n\(body)\n    }\n}\n".write(toFile: folder.path + "/Long.swift", atomically: true, encoding: .utf8)
        let half = (0..<298).map { "    var v\($0) = 0" }.joined(separator: "\n")
        try "final class Split {\n\(half)\n}\n".write(toFile: folder.path + "/Split.swift", atomically: true, encoding: .utf8)
        try "extension Split {\n\(half)\n    var w = 0\n}\n".write(toFile: folder.path + "/Split+More.swift", atomically: true, encoding: .utf8)
        let (status, printed) = try shape(of: folder.path)
        #expect(status == 1)
        #expect(printed.contains("func tooLong is 81 lines"), "\(printed)")
        #expect(printed.contains("type Split is 601 lines"), "\(printed)")
        #expect(!printed.contains("type Long"), "\(printed)")
    }

    /// `scripts/code-shape FOLDER`: its exit status and what it printed.
    private func shape(of folder: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repository.path + "/scripts/code-shape", folder]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }
}
