import Foundation
import Testing
import TestSupport

/// `Package.swift` declares exactly what each target imports: nothing used only by luck of the build
/// order, nothing declared and unused. (The manifest is read as text: `swift package` would wait for
/// the lock that the running `swift test` holds.)
@Suite struct PackageManifestTests {
    /// Modules of the toolchain, not of the package.
    static let toolchain: Set<String> = ["Foundation", "Glibc", "Testing", "Dispatch", "Synchronization", "XCTest"]
    /// Declared for another reason than an import.
    static let buildOnly: [String: Set<String>] = ["EndToEndTests": ["photozoom"]]   // the tests run the binary

    /// Each Swift target of the manifest with the modules its `dependencies:` list names.
    static func declaredTargets(_ manifest: String) throws -> [(name: String, folder: String, dependencies: Set<String>)] {
        let start = try Regex(#"\.(target|executableTarget|testTarget)\(name: "([\w-]+)""#)
        let product = try Regex(#"\.product\(name: "(\w+)", package: "[^"]+"\)"#)
        let quoted = try Regex(#""([\w-]+)""#)
        var targets: [(String, String, Set<String>)] = []
        for match in manifest.matches(of: start) {
            let kind = String(match[1].substring!), name = String(match[2].substring!)
            // The call's text up to its closing parenthesis.
            var depth = 0, end = match.range.lowerBound
            for i in manifest[match.range.lowerBound...].indices {
                if manifest[i] == "(" || manifest[i] == "[" { depth += 1 }
                if manifest[i] == ")" || manifest[i] == "]" { depth -= 1; if depth == 0 { end = i; break } }
            }
            let call = String(manifest[match.range.upperBound..<end])
            guard let list = call.range(of: "dependencies: [") else {
                targets.append((name, kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)", []))
                continue
            }
            var dependencies = String(call[list.upperBound...])
            if let close = dependencies.range(of: "]") { dependencies = String(dependencies[..<close.lowerBound]) }
            var names = Set(dependencies.matches(of: product).map { String($0[1].substring!) })
            names.formUnion(dependencies.replacing(product, with: "").matches(of: quoted).map { String($0[1].substring!) })
            targets.append((name, kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)", names))
        }
        return targets
    }

    @Test func everyTargetDeclaresWhatItImports() throws {
        let root = TestImages.repository
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = try PackageManifestTests.declaredTargets(manifest)
        #expect(targets.count > 25, "the manifest's targets were found")
        let importLine = try Regex(#"^\s*(?:@testable\s+)?import\s+(\w+)"#)
        // A C target uses another by including its header, named after it.
        let includeLine = try Regex(#"^\s*#include\s+"(\w+)\.h""#)
        let targetNames = Set(targets.map(\.name))
        for target in targets {
            var imported = Set<String>()
            let files = FileManager.default.enumerator(at: root.appendingPathComponent(target.folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
            for file in files where ["swift", "c", "h"].contains(file.pathExtension) {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    if let match = String(line).firstMatch(of: importLine) { imported.insert(String(match[1].substring!)) }
                    if let match = String(line).firstMatch(of: includeLine), targetNames.contains(String(match[1].substring!)),
                       String(match[1].substring!) != target.name {
                        imported.insert(String(match[1].substring!))
                    }
                }
            }
            imported.subtract(PackageManifestTests.toolchain)
            let undeclared = imported.subtracting(target.dependencies)
            let unused = target.dependencies.subtracting(imported).subtracting(PackageManifestTests.buildOnly[target.name] ?? [])
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) undeclared")
            #expect(unused.isEmpty, "\(target.name) declares \(unused.sorted()) and imports none of it")
        }
    }
}
