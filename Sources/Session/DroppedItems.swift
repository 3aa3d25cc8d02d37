import Foundation

/// What a drop names: lines that are local paths (from the root) or `file://` URIs; URIs of anything else
/// (a browser's `https://` image), which cannot be opened; and text that names no file at all (a dragged
/// sentence), which is not taken for a relative path.
enum DroppedItems {
    static func split(_ lines: [[UInt8]]) -> (local: [[UInt8]], remote: [String], text: [String]) {
        var local: [[UInt8]] = [], remote: [String] = [], text: [String] = []
        for line in lines {
            let words = String(decoding: line, as: UTF8.self)
            if let scheme = words.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) {
                if words[scheme].lowercased() == "file://" { local.append(line) } else { remote.append(words) }
            } else if line.first == UInt8(ascii: "/") {
                local.append(line)
            } else if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                text.append(words)
            }
        }
        return (local, remote, text)
    }
}
