import Foundation
import Grid
import Testing
import TestSupport
@testable import App

/// The key table is written once: docs/reference.md's key table and the `?` card say what it says.
@Suite struct KeyBindingTests {
    /// docs/reference.md's "key in the window" table, row by row: the first cell and the second.
    func readmeRows() throws -> [(String, String)] {
        let readme = try String(contentsOf: TestImages.repository.appendingPathComponent("docs/reference.md"), encoding: .utf8)
        let table = try #require(readme.components(separatedBy: "| key in the window | action |").dropFirst().first)
        return table.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[1], cells[2])
        }
    }

    @Test func readmeListsEveryKeyAsTheTableDoes() throws {
        let rows = try readmeRows()
        for binding in KeyBinding.all {
            #expect(rows.contains { $0 == (binding.label, binding.detail) }, "docs/reference.md's row for \(binding.label)")
        }
        // A row naming keys (in backticks, before any word) must be a binding: the docs can't promise a key the handler lacks.
        let labels = Set(KeyBinding.all.map(\.label))
        for (keys, _) in rows where keys.hasPrefix("`") || keys.hasPrefix("arrows") {
            #expect(labels.contains(keys), "\(keys) is in docs/reference.md but not in the key table")
        }
    }

    /// Once alone and once with Ctrl at most (`r` records, `Ctrl+R` turns the photo).
    @Test func noKeyIsBoundTwice() {
        let keys = KeyBinding.all.flatMap { binding in binding.keys.map { (binding.needsControl ? "ctrl+" : "") + $0.key } }
        #expect(Set(keys).count == keys.count)
        #expect(KeyBinding.action(for: "r") == .record)
        #expect(KeyBinding.action(for: "r", control: true) == .turn(clockwise: true))
        #expect(KeyBinding.action(for: "R", control: true) == .turn(clockwise: false))
    }

    /// A key's action, with what it applies to, comes from the table alone.
    @Test func eachKeyCarriesItsAction() {
        #expect(KeyBinding.action(for: "KP_Add") == .zoom(.stepIn))
        #expect(KeyBinding.action(for: "minus") == .zoom(.stepOut))
        #expect(KeyBinding.action(for: "0", control: true) == .zoom(.fit), "Ctrl does not stop a plain key")
        #expect(KeyBinding.action(for: "1") == .zoom(.actualSize) && KeyBinding.action(for: "1", control: true) == .libraryView(.years))
        #expect(KeyBinding.action(for: "End") == .move(.last))
        #expect(KeyBinding.action(for: "c") == nil && KeyBinding.action(for: "c", control: true) == .copy)
        #expect(KeyBinding.action(for: "x") == nil)
    }

    @Test func theCardShowsEveryBinding() {
        let shown = Set(HelpCard.entries.map(\.keys))
        for binding in KeyBinding.all { #expect(shown.contains(binding.label.replacingOccurrences(of: "`", with: ""))) }
    }
}
