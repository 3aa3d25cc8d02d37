import Foundation

/// What a drop names: lines that are local paths or `file://` URIs, and URIs of anything else (a
/// browser's `https://` image), which cannot be opened.
enum DroppedItems {
    static func split(_ lines: [[UInt8]]) -> (local: [[UInt8]], remote: [String]) {
        var local: [[UInt8]] = [], remote: [String] = []
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            if let scheme = text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression),
               text[scheme].lowercased() != "file://" {
                remote.append(text)
            } else {
                local.append(line)
            }
        }
        return (local, remote)
    }
}
