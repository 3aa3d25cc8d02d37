import Foundation
import Geometry
import SceneGraph

/// The scene tree as JSON (`dump FILE` in a script): every node's name, its frame in window
/// coordinates, alpha, whether it is hidden, the photo it shows, the text it says, and its children.
public enum SceneDump {
    struct Entry: Encodable {
        let name: String
        /// x, y, width, height in window points (the bounding box under transforms).
        let frame: [Double]
        let alpha: Double
        let hidden: Bool
        let photo: String?
        let text: String?
        let children: [Entry]
    }

    public static func json(_ root: Node) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(entry(root))) ?? Data()
    }

    static func entry(_ node: Node) -> Entry {
        let f = node.convert(node.bounds, to: nil)
        return Entry(name: node.name, frame: [f.minX, f.minY, f.width, f.height].map(rounded), alpha: rounded(node.alpha),
                     hidden: node.isHidden, photo: node.contentsName, text: node.text?.string,
                     children: node.children.map(entry))
    }

    /// Four decimals: enough to check a curve, and stable across runs.
    private static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}
