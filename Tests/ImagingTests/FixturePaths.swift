import Foundation

/// Files the decoding tests read: the fixtures made by `Fixtures/make_fixtures.py` and the
/// bundled photographs.
enum FixturePaths {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let bundledImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Images")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
    static func bundled(_ name: String) -> String { bundledImages.appendingPathComponent(name).path }
}
