/// What a file says its colour numbers mean. Untagged pictures are sRGB, as the web and every
/// desktop take them.
public enum ColourDescription: Sendable, Hashable {
    case sRGB
    /// An embedded ICC profile, as the file holds it.
    case icc([UInt8])
    /// ITU-T H.273 code points, as HEIF/AVIF (`colr` nclx), JPEG XL and PNG (`cICP`) give them: the
    /// colour primaries and the transfer characteristics (the matrix is the decoder's business).
    case cicp(primaries: Int, transfer: Int)
    /// A PNG without a profile: its `gAMA` (the encoding exponent, 0.45455 for 1/2.2) and `cHRM`.
    case gammaAndPrimaries(gamma: Double?, primaries: Chromaticities?)
}

/// CIE xy chromaticities of a white point and three primaries.
public struct Chromaticities: Sendable, Hashable {
    public var white: (x: Double, y: Double)
    public var red: (x: Double, y: Double)
    public var green: (x: Double, y: Double)
    public var blue: (x: Double, y: Double)

    public init(white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double)) {
        self.white = white
        self.red = red
        self.green = green
        self.blue = blue
    }

    private var values: [Double] { [white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y] }
    public static func == (a: Chromaticities, b: Chromaticities) -> Bool { a.values == b.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    /// ITU-R BT.709 / sRGB, D65.
    public static let sRGB = Chromaticities(white: (0.3127, 0.3290), red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
}
