import Foundation

/// A node of a script's `dump` (`SceneDump`), as the tests read it back: its name, what it says, whether it
/// shows, and every node under it.
struct DumpedNode: Decodable {
    let name: String
    let alpha: Double
    let hidden: Bool
    let text: String?
    /// The file name of the photo the node shows, if any.
    let photo: String?
    /// x, y, width, height in window points.
    let frame: [Double]
    let children: [DumpedNode]

    /// It and every node under it, depth first.
    var all: [DumpedNode] { [self] + children.flatMap(\.all) }

    /// It and every node under it that shows (not hidden, not transparent, nor under one that is), depth first.
    var shown: [DumpedNode] { hidden || alpha == 0 ? [] : [self] + children.flatMap(\.shown) }

    /// Every node of the dump at `path`.
    static func all(in path: String) throws -> [DumpedNode] {
        try root(in: path).all
    }

    /// The window's node of the dump at `path`.
    static func root(in path: String) throws -> DumpedNode {
        try JSONDecoder().decode(DumpedNode.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
