import Foundation

/// A node of a script's `dump` (`SceneDump`), as the tests read it back: its name, what it says, whether it
/// shows, and every node under it.
struct DumpedNode: Decodable {
    let name: String
    let alpha: Double
    let hidden: Bool
    let text: String?
    let children: [DumpedNode]

    /// It and every node under it, depth first.
    var all: [DumpedNode] { [self] + children.flatMap(\.all) }

    /// Every node of the dump at `path`.
    static func all(in path: String) throws -> [DumpedNode] {
        try JSONDecoder().decode(DumpedNode.self, from: Data(contentsOf: URL(fileURLWithPath: path))).all
    }
}
