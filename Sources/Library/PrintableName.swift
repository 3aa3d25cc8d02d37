extension String {
    /// The text with its control characters written out (`\n`, `\t`, `\u{1B}`), so that a file name
    /// holding a newline or an escape sequence prints on one line and can't forge a message of its
    /// own ("x.jpg\nphotozoom: error: …"), nor drive the terminal.
    public var escapingControlCharacters: String {
        var out = ""
        out.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
