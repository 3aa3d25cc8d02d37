/// A `text/uri-list` (RFC 2483), as drops bring it.
public enum URIList {
    /// Its lines, as bytes, without the comments and the empty ones.
    public static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
            .map(Array.init)
            .filter { $0.first != UInt8(ascii: "#") }
    }
}
